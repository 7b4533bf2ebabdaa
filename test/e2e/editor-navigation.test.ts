import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, openFile, received, setCaret, withEditor, type FakeSession } from '../support/page.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Navigation from server answers into the Files tree and tabs (S35, S36), against the fake server
 * installed as `kotlin-lsp`, in a task with two repositories (`repoA`, `repoB`): the workspace is
 * their common folder, and tabs and tree use task-root-relative paths. The same editor also shows
 * that its caret follows the person's reduced-motion setting.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'repoA/src/Main.kt';
const DEEP = 'repoA/deep/nested/pkg/Target.kt';
const UTIL = 'repoB/lib/Util.kt';
const files = {
  [MAIN]: ['package demo', '', 'fun main() {', '    target()', '    util()', '}', ''].join('\n'),
  [DEEP]: ['package demo.deep', '', '// the target', 'fun target() {}', ''].join('\n'),
  [UTIL]: ['package demo.lib', '', '// a utility', '// more', 'fun util() {}', ''].join('\n'),
};
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

/** The first definition request answers the deeply nested file; every later one repoB's utility. */
function script(once: string) {
  return (fileUri: (path: string) => string): FakeScript => ({
    capabilities: { textDocumentSync: { openClose: true, change: 2 }, definitionProvider: true },
    rules: {
      'textDocument/definition': [
        { once, actions: [{ respond: [{ uri: fileUri(DEEP), range: range(3, 4, 10) }] }] },
        { respond: [{ uri: fileUri(UTIL), range: range(4, 4, 8) }] },
      ],
    },
  });
}

describe.runIf(run)('navigating to server definitions across folders and repositories (fake kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  const tab = (path: string) => page.locator(`[data-testid="editor-tab"][data-path="${path}"]`);
  const tabPaths = () => page.locator('[data-testid="editor-tab"]').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-path')));

  beforeAll(async () => {
    ({ stack, session, browser, page } = await openFakeEditor({
      session: (started) => ({ binary: 'kotlin-lsp', script: script(join(started.home, 'definition-once')), files, repositories: ['repoA', 'repoB'] }),
      file: MAIN,
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('S35 a definition beneath unloaded folders loads and expands every ancestor in the Files tree and marks the target active', async () => {
    for (const folder of ['repoA/deep', 'repoA/deep/nested', 'repoA/deep/nested/pkg']) {
      expect(await page.locator(`[data-testid="tree-node"][data-path="${folder}"]`).count(), folder).toBe(folder === 'repoA/deep' ? 1 : 0);
    }
    expect(await page.locator('[data-testid="tree-node"][data-path="repoA/deep"]').getAttribute('aria-expanded')).toBe('false');

    await setCaret(page, 4, 6);
    await page.keyboard.press('F12');
    await tab(DEEP).and(page.locator('[data-active="true"]')).waitFor({ timeout: 15_000 });
    for (const folder of ['repoA/deep', 'repoA/deep/nested', 'repoA/deep/nested/pkg']) {
      await page.locator(`[data-testid="tree-node"][data-path="${folder}"][aria-expanded="true"]`).waitFor();
    }
    await page.locator(`[data-testid="tree-node"][data-path="${DEEP}"][data-active="true"]`).waitFor();
    await expect.poll(() => caretPosition(page)).toEqual({ lineNumber: 4, column: 5 });
    expect(received(session, 'textDocument/definition')[0]!.params.textDocument.uri).toBe(session.fileUri(MAIN));
  });

  it('S36 a definition into an attached repository file already open from the Files tree focuses that tab instead of opening a second one', async () => {
    await openFile(page, UTIL);
    await tab(MAIN).locator('.tab-label').click();
    await tab(MAIN).and(page.locator('[data-active="true"]')).waitFor();
    const before = await tabPaths();
    expect(before).toEqual([MAIN, DEEP, UTIL]);

    await setCaret(page, 5, 6);
    await page.keyboard.press('F12');
    await tab(UTIL).and(page.locator('[data-active="true"]')).waitFor({ timeout: 15_000 });
    await expect.poll(() => caretPosition(page)).toEqual({ lineNumber: 5, column: 5 });
    expect(await tabPaths()).toEqual(before);
    await page.locator(`[data-testid="tree-node"][data-path="${UTIL}"][data-active="true"]`).waitFor();
    // The server saw each document once, under the workspace URI of the ready handshake.
    expect(received(session, 'textDocument/didOpen').map((m) => m.params.textDocument.uri)).toEqual([MAIN, DEEP, UTIL].map((p) => session.fileUri(p)));
  });
  it('the caret stops blinking while the person asks the system for reduced motion, and blinks again when they stop asking', async () => {
    const caret = () =>
      withEditor(page, (editor, monaco) =>
        editor.getOption(monaco.editor.EditorOption.cursorBlinking) === monaco.editor.TextEditorCursorBlinkingStyle.Solid ? 'solid' : 'blinks',
      );
    expect(await caret()).toBe('blinks');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(caret).toBe('solid');
    // The page's own spinners follow the same setting (styles.css): the caret was the one thing that did not.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(caret).toBe('blinks');
  });
});
