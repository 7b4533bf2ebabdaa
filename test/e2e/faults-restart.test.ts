/**
 * The crash budget as people see it, in Chromium against the real stack (built backend with
 * KANDEV_LSP_RESTART_LIMIT=2, the fake server installed as kotlin-lsp): a crashed server shows the
 * localized restarting state, then Ready with its markers back from the new process; past the
 * budget the localized 4006 copy with Retry, and the details show the server's last stderr lines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { ensureBuilt } from '../support/build.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  lspStatesSeen,
  lspStatus,
  markers,
  openFile,
  openLspPanel,
  openSessionInLocale,
  recordLspStates,
  startEditorStack,
  startFakeSession,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const MAIN = 'src/Main.kt';

/** Every text the toolbar status message showed, in order (the restarting state is short-lived). */
async function recordLspMessages(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as any).__lspMessages = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="lsp-message"]')) {
        const text = (el as HTMLElement).innerText;
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

const messagesSeen = (page: Page): Promise<string[]> => page.evaluate(() => [...((window as any).__lspMessages ?? [])]);

function script(crash: { once?: string; stderr: string }): FakeScript {
  const die = [{ delayMs: 300 }, { stderr: crash.stderr }, { exit: 3 }];
  return {
    capabilities: { textDocumentSync: { openClose: true, change: 2 }, hoverProvider: true },
    rules: {
      // A visible restart: the new process takes a moment to answer the broker's initialize.
      initialize: [{ delayMs: 1_500 }],
      initialized: crash.once ? [{ once: crash.once, actions: die }] : die,
      'textDocument/didOpen': [
        {
          notify: 'textDocument/publishDiagnostics',
          params: {
            uri: '$uri',
            version: '$version',
            diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, severity: 2, message: 'diagnostic from the fake' }],
          },
        },
      ],
    },
  };
}

describe.runIf(run)('crash budget in the browser', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let root: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ensureBuilt('fake-lsp-server');
    root = mkdtempSync(join(tmpdir(), 'kandev-faults-restart-'));
    stack = await startEditorStack({ KANDEV_LSP_RESTART_LIMIT: '2' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function openKotlin(session: FakeSession, locale: string): Promise<Page> {
    const context = await newContext(browser.browser, 'desktop');
    contexts.push(context);
    const page = await context.newPage();
    await recordLspStates(page);
    await recordLspMessages(page);
    await openSessionInLocale(page, stack.url, session.sessionId, locale);
    await openFile(page, MAIN);
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    return page;
  }

  const lspMarkers = async (page: Page, session: FakeSession) =>
    (await markers(page, session.sessionId, MAIN)).filter((m) => m.owner.startsWith('kandev-lsp.')).map((m) => m.message);

  it('a crashed server shows the localized restarting state, then Ready with its markers back from the new process', async () => {
    const session = await startFakeSession(stack, {
      binary: 'kotlin-lsp',
      script: script({ once: join(root, 'crashed-once'), stderr: 'panic: index out of range' }),
      files: { [MAIN]: 'fun main() {}\n' },
    });
    const page = await openKotlin(session, 'en');
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    await expect.poll(() => lspMarkers(page, session), { timeout: 15_000 }).toEqual(['diagnostic from the fake']);

    // The server crashes right after `initialized`; the lease restarts it.
    await expect
      .poll(() => messagesSeen(page), { timeout: 30_000 })
      .toContain('The Kotlin language server stopped unexpectedly. Restarting it (attempt 1 of 2)…');
    await expect.poll(() => new Set(session.log().map((l) => l.pid)).size, { timeout: 30_000 }).toBe(2);
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    const second = session.log().at(-1)!.pid;
    // The browser reopened its document on the new process, and the new markers are shown.
    await expect
      .poll(
        () =>
          session
            .log()
            .filter((l) => l.pid === second)
            .map((l) => l.message.method),
        { timeout: 15_000 },
      )
      .toEqual(expect.arrayContaining(['initialize', 'initialized', 'textDocument/didOpen']));
    await expect.poll(() => lspMarkers(page, session), { timeout: 15_000 }).toEqual(['diagnostic from the fake']);
    const states = await lspStatesSeen(page);
    expect(states.slice(states.lastIndexOf('kotlin:ready') - 1)).toEqual(['kotlin:starting', 'kotlin:ready']);
    expect(states).not.toContain('kotlin:error');
    expect(await page.locator('body').innerText()).not.toMatch(/\[object Object\]|4006/);
  });

  it("past the budget: the localized 4006 copy with Retry, and the details show the server's last stderr lines (pt-pt)", async () => {
    const session = await startFakeSession(stack, {
      binary: 'kotlin-lsp',
      script: script({ stderr: 'fatal error: out of memory (kotlin)' }),
      files: { [MAIN]: 'fun main() {}\n' },
    });
    const page = await openKotlin(session, 'pt-pt');
    await waitForLspState(page, 'kotlin', 'error', 90_000);
    const seen = await messagesSeen(page);
    expect(seen).toContain('O servidor de linguagem Kotlin parou inesperadamente. A reiniciá-lo (tentativa 1 de 2)…');
    expect(seen).toContain('O servidor de linguagem Kotlin parou inesperadamente. A reiniciá-lo (tentativa 2 de 2)…');
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-message').innerText()).toBe('O servidor de linguagem Kotlin parou inesperadamente.');
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-retry').isVisible()).toBe(true);
    expect(new Set(session.log().map((l) => l.pid)).size).toBe(3);
    const panel = await openLspPanel(page, 'kotlin');
    expect(await panel.getByTestId('lsp-server-stderr').innerText()).toContain('fatal error: out of memory (kotlin)');
    // (headings are upper-cased by CSS)
    expect((await panel.innerText()).toLowerCase()).toContain('última saída do servidor de linguagem');
  });
});
