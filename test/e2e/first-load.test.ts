import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { markers, openFile, openLspPanel, openSession, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const isTypeScriptWorker = (url: string) => /\/assets\/ts\.worker-[^/]+\.js$/.test(new URL(url).pathname);
/** The TextMate engine: its module and its regex engine's WebAssembly (no grammar is read without them). */
const isTextmateEngine = (url: string) => /\/assets\/(textmate-[^/]+\.js|onig-[^/]+\.wasm)$/.test(new URL(url).pathname);
/**
 * What the first open of a TypeScript file may cost over the wire, up to its ready server
 * (docs/performance.md): the editor, Monaco and TypeScript's Monarch grammar; no grammar of the
 * twenty-odd other languages.
 */
const FIRST_LOAD_BAR_BYTES = 1.5 * 1024 * 1024;

/**
 * What a first visit downloads: precompressed assets, and Monaco's 7 MB TypeScript worker only
 * when a built-in TypeScript feature is really needed (never for Python, never while the
 * TypeScript language server owns the file).
 */
describe.runIf(run)('first load of the editor on a fresh profile', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;

  beforeAll(async () => {
    ensureBuilt('web-test');
    stack = await startStack();
    const task = await stack.createTask({ title: 'Demo', workspace: copyDemoWorkspace() });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function freshPage(): Promise<{ page: Page; requests: Request[]; logged: string[] }> {
    const page = await (await newContext(browser.browser)).newPage();
    const requests: Request[] = [];
    const logged: string[] = [];
    page.on('request', (request) => requests.push(request));
    page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
    return { page, requests, logged };
  }

  it('the first open of a TypeScript file, up to its ready server, costs under 1.5 MiB over the wire, loads no TextMate engine and writes nothing to the console', async () => {
    const { page, requests, logged } = await freshPage();
    // Bytes as they crossed the wire (compressed bodies plus headers), as the first-load benchmark counts them.
    const cdp = await page.context().newCDPSession(page);
    let bytes = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => void (bytes += event.encodedDataLength));
    await cdp.send('Network.enable');
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    // What the ready editor still fetches right after counts too.
    await page.waitForLoadState('networkidle');
    expect(requests.map((r) => r.url()).filter(isTextmateEngine)).toEqual([]);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes, `${Math.round(bytes / 1024)} KiB`).toBeLessThan(FIRST_LOAD_BAR_BYTES);
    // Not a warning, not a library's notice (i18next promoted its vendor's service here).
    expect(logged).toEqual([]);
    await page.close();
  });

  it('opening a Python file never fetches the TypeScript worker, and Monaco arrives brotli-compressed', async () => {
    const { page, requests } = await freshPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'app/main.py');
    await waitForLspState(page, 'python', 'ready');
    const monacoChunk = requests.find((r) => /\/assets\/monaco-core-[^/]+\.js$/.test(new URL(r.url()).pathname));
    expect(monacoChunk, 'the Monaco chunk was requested').toBeDefined();
    const response = await monacoChunk!.response();
    expect(await response!.headerValue('content-encoding')).toBe('br');
    expect(await response!.headerValue('vary')).toBe('Accept-Encoding');
    expect(requests.map((r) => r.url()).filter(isTypeScriptWorker)).toEqual([]);
    await page.close();
  });

  it('a TypeScript file owned by the language server does not fetch it either; stopping the server does', async () => {
    const { page, requests } = await freshPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    // The server's diagnostics are shown: the language server, not the worker, owns this model.
    await expect
      .poll(async () => (await markers(page, sessionId, 'src/main.ts')).map((m) => m.message).join('\n'), { timeout: 60_000 })
      .toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(requests.map((r) => r.url()).filter(isTypeScriptWorker)).toEqual([]);

    // Stopped by the person: Monaco's own TypeScript support takes over, so now the worker loads.
    const workerRequested = page.waitForRequest((r) => isTypeScriptWorker(r.url()), { timeout: 60_000 });
    const panel = await openLspPanel(page, 'typescript');
    await panel.getByTestId('lsp-stop').click();
    await workerRequested;
    await page.close();
  });
});
