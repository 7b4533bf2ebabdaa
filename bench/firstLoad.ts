/**
 * First load on a fresh browser profile: bytes over the wire (CDP Network.loadingFinished
 * encodedDataLength: compressed bodies plus headers), time to a visible editor and to a ready
 * server, for the real editor and for a bare Monaco page from the same build (bench-monaco.html).
 */
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium, newContext } from '../test/support/browser.js';
import { openFile, openSession, waitForLspState } from '../test/support/page.js';
import type { RunningStack } from '../test/support/stack.js';

export interface FirstLoadRow {
  page: string;
  editorMs: number;
  editorKiB: number;
  readyMs: number | undefined;
  readyKiB: number | undefined;
  requests: number;
  typescriptWorker: boolean;
}

interface WireMeter {
  bytes(): number;
  requests(): number;
  urls(): string[];
}

async function meter(cdp: CDPSession): Promise<WireMeter> {
  const urls = new Map<string, string>();
  let bytes = 0;
  let count = 0;
  cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string } }) => void urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    count++;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  return { bytes: () => bytes, requests: () => count, urls: () => [...urls.values()] };
}

async function freshPage(): Promise<{ page: Page; wire: WireMeter; close(): Promise<void> }> {
  const browser = await launchChromium();
  const context = await newContext(browser.browser);
  const page = await context.newPage();
  const wire = await meter(await context.newCDPSession(page));
  return { page, wire, close: () => browser.close() };
}

const kib = (bytes: number) => bytes / 1024;
const isTypeScriptWorker = (url: string) => /\/assets\/ts\.worker-[^/]+\.js$/.test(url);

export async function firstLoad(stack: RunningStack, sessionId: string, file: string, language: string): Promise<FirstLoadRow> {
  const { page, wire, close } = await freshPage();
  try {
    const start = performance.now();
    await openSession(page, stack.url, sessionId);
    await openFile(page, file);
    await page.locator(`[data-testid="editor"][data-path="${file}"] .view-lines .view-line`).first().waitFor({ state: 'visible' });
    const editorMs = performance.now() - start;
    const editorKiB = kib(wire.bytes());
    await waitForLspState(page, language, 'ready');
    const readyMs = performance.now() - start;
    // Whatever the ready editor still fetches right after (diagnostics, semantic tokens) counts too.
    await page.waitForLoadState('networkidle');
    return {
      page: `Kandev editor, ${file}`,
      editorMs,
      editorKiB,
      readyMs,
      readyKiB: kib(wire.bytes()),
      requests: wire.requests(),
      typescriptWorker: wire.urls().some(isTypeScriptWorker),
    };
  } finally {
    await close();
  }
}

export async function bareMonaco(stack: RunningStack, sessionId: string, file: string): Promise<FirstLoadRow> {
  const { page, wire, close } = await freshPage();
  try {
    const start = performance.now();
    await page.goto(`${stack.url}/bench-monaco.html#${sessionId}/${file}`);
    await page.locator('[data-testid="bare-editor"] .view-lines .view-line').first().waitFor({ state: 'visible' });
    const editorMs = performance.now() - start;
    await page.waitForLoadState('networkidle');
    return {
      page: `bare Monaco (same build), ${file}`,
      editorMs,
      editorKiB: kib(wire.bytes()),
      readyMs: undefined,
      readyKiB: undefined,
      requests: wire.requests(),
      typescriptWorker: wire.urls().some(isTypeScriptWorker),
    };
  } finally {
    await close();
  }
}
