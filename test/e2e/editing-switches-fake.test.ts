import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { UserSettings } from '@kandev/protocol';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  editorText,
  openFile,
  openSession,
  putSettings,
  received,
  serverDocument,
  setCaret,
  startEditorStack,
  startFakeSession,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * format on type is a per-language switch of the Editors page, off by default. None of
 * the real servers here offers textDocument/onTypeFormatting (typescript-language-server, pyright
 * and gopls advertise no documentOnTypeFormattingProvider), so the scriptable fake server installed
 * as `kotlin-lsp` offers it; the switch is turned on by a person on the Settings page, not by the API.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const ORIGINAL = ['fun main() {', '    helper()', '}', ''].join('\n');
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

const script: FakeScript = {
  capabilities: {
    textDocumentSync: { openClose: true, change: 2, save: true },
    documentOnTypeFormattingProvider: { firstTriggerCharacter: ';' },
  },
  // The server's on-type answer: the statement that ended is re-indented to two spaces.
  rules: { 'textDocument/onTypeFormatting': [{ respond: [{ range: range(1, 0, 4), newText: '  ' }] }] },
};

describe.runIf(run)('format on type: an Editors page switch, off by default (fake server as kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  const card = () => page.locator('[data-testid="language-card"][data-language="kotlin"]');
  const settings = () => stack.api<UserSettings>('/api/settings');
  const typeSemicolon = async () => {
    await setCaret(page, 2, 13);
    await page.keyboard.type(';');
  };

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    session = await startFakeSession(stack, { binary: 'kotlin-lsp', script, files: { [MAIN]: ORIGINAL } });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the Editors page shows format on save, format on type and inlay hints off for a language nobody switched on', async () => {
    await page.goto(`${stack.url}/?locale=en#/settings`);
    await card().waitFor();
    const switches = card().getByTestId('editing-switches');
    for (const key of ['format_on_save', 'format_on_type', 'inlay_hints']) {
      expect(await switches.getByTestId(`${key}-toggle`).isChecked(), key).toBe(false);
    }
    expect(await switches.getByLabel('Format on type').count()).toBe(1);
    expect((await settings()).lsp_editor_features?.kotlin).toBeUndefined();
  });

  it('while the switch is off, typing the trigger character sends no textDocument/onTypeFormatting', async () => {
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
    await typeSemicolon();
    // The server saw the keystroke (a provider would have flushed it and asked at once).
    await expect.poll(() => serverDocument(session, session.fileUri(MAIN))?.text, { timeout: 15_000 }).toBe(ORIGINAL.replace('helper()', 'helper();'));
    expect(received(session, 'textDocument/onTypeFormatting')).toEqual([]);
    expect(await editorText(page)).toBe(ORIGINAL.replace('helper()', 'helper();'));
    await page.keyboard.press('Control+Z');
    await expect.poll(() => editorText(page)).toBe(ORIGINAL);
  });

  it('switched on in the Editors page, the trigger character asks the server and its edit is applied', async () => {
    await page.goto(`${stack.url}/?locale=en#/settings`);
    await card().waitFor();
    await card().getByTestId('format_on_type-toggle').check();
    await expect.poll(async () => (await settings()).lsp_editor_features?.kotlin).toEqual({ format_on_type: true });
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
    await typeSemicolon();
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toBe(['fun main() {', '  helper();', '}', ''].join('\n'));
    expect(received(session, 'textDocument/onTypeFormatting').at(-1)!.params).toMatchObject({
      textDocument: { uri: session.fileUri(MAIN) },
      position: { line: 1, character: 13 },
      ch: ';',
      options: { insertSpaces: true },
    });
    // Only the trigger character asks: ordinary typing does not.
    const asked = received(session, 'textDocument/onTypeFormatting').length;
    await page.keyboard.type(' x');
    await expect.poll(() => serverDocument(session, session.fileUri(MAIN))?.text, { timeout: 15_000 }).toContain('helper(); x');
    expect(received(session, 'textDocument/onTypeFormatting')).toHaveLength(asked);
  });
});
