import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  openFile,
  openSession,
  putSettings,
  received,
  setCaret,
  startEditorStack,
  startFakeSession,
  suggestRows,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * The page's first suggestion list is drawn once off screen while the page is idle
 * (apps/web/src/lib/monaco/suggestWarmup.ts), so the person's first `.` does not pay Monaco's cold
 * start: in Chromium, against the fake installed as `kotlin-lsp`. What is checked is what the
 * warm-up leaves behind (nothing: no editor, no model, no element, no request to the server) and
 * that it did draw a list; what it saves is the typing bench's (bench/typingAfterReady.ts).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const script: FakeScript = {
  capabilities: { textDocumentSync: { openClose: true, change: 2 }, completionProvider: { triggerCharacters: ['.'] } },
  rules: { 'textDocument/completion': [{ respond: { isIncomplete: false, items: [{ label: 'memberOfX', kind: 2 }] } }] },
};

/** Records, from the page's first script on, each warm-up element: whether a suggestion row was drawn in it and whether it left. */
async function watchWarmups(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: Array<{ row: boolean; removed: boolean }> = [];
    (window as unknown as { __warmups: typeof seen }).__warmups = seen;
    const hosts = new Map<Element, { row: boolean; removed: boolean }>();
    new MutationObserver(() => {
      for (const host of document.querySelectorAll('[data-testid="suggest-warmup"]')) {
        let entry = hosts.get(host);
        if (!entry) {
          entry = { row: false, removed: false };
          hosts.set(host, entry);
          seen.push(entry);
        }
        if (host.querySelector('.suggest-widget .monaco-list-row')) entry.row = true;
      }
      for (const [host, entry] of hosts) if (!host.isConnected) entry.removed = true;
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

const warmups = (page: Page) => page.evaluate(() => (window as unknown as { __warmups: Array<{ row: boolean; removed: boolean }> }).__warmups);

describe.runIf(run)("the page's first suggestion list is warmed off screen (fake kotlin-lsp)", () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    session = await startFakeSession(stack, { binary: 'kotlin-lsp', script, files: { [MAIN]: 'fun main() {\n    val x = 1\n    \n}\n' } });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await watchWarmups(page);
    await openSession(page, stack.url, session.sessionId);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('draws one list where nobody sees it once the first editor exists, then leaves no editor, model, element or request behind', async () => {
    // Nothing before the first editor: the task list and an empty session view never pay for it.
    await page.waitForTimeout(500);
    expect(await warmups(page)).toEqual([]);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
    await expect.poll(() => warmups(page)).toEqual([{ row: true, removed: true }]);
    const left = await page.evaluate(() => {
      const monaco = (window as any).__kandev.monaco;
      return {
        editors: monaco.editor.getEditors().length,
        warmupModels: monaco.editor.getModels().filter((m: any) => m.uri.toString().includes('warmup')).length,
      };
    });
    expect(left).toEqual({ editors: 1, warmupModels: 0 });

    // The person's first list comes from their server as usual.
    await setCaret(page, 3, 5);
    await page.keyboard.type('x.');
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n')).toContain('memberOfX');
    // The server heard of the person's file only: no document, request or position of the warm-up.
    const heard = session.log().map((l) => JSON.stringify(l.message));
    expect(heard.filter((line) => line.includes('warmup'))).toEqual([]);
    expect(received(session, 'textDocument/completion')).toHaveLength(1);
    // Once per page: another editor (another file's tab reuses it; a reload is a new page) warms nothing more.
    await page.waitForTimeout(500);
    expect(await warmups(page)).toHaveLength(1);
  });
});
