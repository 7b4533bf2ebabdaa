import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  editorText,
  focusSuggestion,
  openFile,
  openSession,
  putSettings,
  received,
  runEditorAction,
  setCaret,
  startEditorStack,
  startFakeSession,
  suggestRows,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Completion and signature help in Chromium against the scriptable fake server installed as
 * `kotlin-lsp`: the fake's log is the witness of what the server received (trigger kinds,
 * trigger characters, and which requests were never sent).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';

/** The 25 standard LSP CompletionItemKinds by name, in LSP order (kind = index + 1). */
const LSP_KINDS = [
  'Text',
  'Method',
  'Function',
  'Constructor',
  'Field',
  'Variable',
  'Class',
  'Interface',
  'Module',
  'Property',
  'Unit',
  'Value',
  'Enum',
  'Keyword',
  'Snippet',
  'Color',
  'File',
  'Reference',
  'Folder',
  'EnumMember',
  'Constant',
  'Struct',
  'Event',
  'Operator',
  'TypeParameter',
];
const kebab = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();

const sync = { openClose: true, change: 2 };

/** One item per standard kind; isIncomplete so that typing on asks the server again (S19). */
const kindsScript: FakeScript = {
  capabilities: { textDocumentSync: sync, hoverProvider: true, completionProvider: { triggerCharacters: ['.'] } },
  rules: {
    'textDocument/completion': [
      {
        respond: {
          isIncomplete: true,
          items: LSP_KINDS.map((name, i) => ({ label: `kind${name}`, kind: i + 1, sortText: String(i).padStart(2, '0') })),
        },
      },
    ],
    'textDocument/hover': [{ respond: { contents: { kind: 'plaintext', value: 'fake hover' } } }],
  },
};

const kindsSource = ['package demo', '', 'fun main() {', '    val greeting = "hi"', '    greeting', '', '    ', '}', ''].join('\n');

/**
 * S22: lines whose completion items carry no edit, a TextEdit, or an InsertReplaceEdit. Ranges are
 * absolute positions in rangesSource (0-based lines); Monaco drops an item whose range is on
 * another line than the caret, so each line sees only the items meant for it plus the fallback.
 */
const rangesSource = ['package demo', '', 'fun main() {', '    fal', '    abc.de', '    foobar', '}', ''].join('\n');
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const rangesScript: FakeScript = {
  capabilities: { textDocumentSync: sync, completionProvider: { triggerCharacters: ['.'] } },
  rules: {
    'textDocument/completion': [
      {
        respond: {
          isIncomplete: false,
          items: [
            { label: 'fallbackItem', kind: 6, sortText: 'a' },
            { label: 'textEditItem', kind: 2, sortText: 'b', filterText: 'abc.de', textEdit: { range: range(4, 4, 10), newText: 'replacedByTextEdit' } },
            {
              label: 'insertReplaceItem',
              kind: 2,
              sortText: 'c',
              filterText: 'foobar',
              textEdit: { insert: range(5, 4, 7), replace: range(5, 4, 10), newText: 'qux' },
            },
          ],
        },
      },
    ],
  },
};

const signatureScript: FakeScript = {
  capabilities: { textDocumentSync: sync, hoverProvider: true, signatureHelpProvider: { triggerCharacters: ['('], retriggerCharacters: [','] } },
  rules: {
    'textDocument/signatureHelp': [
      {
        respond: {
          signatures: [{ label: 'greet(name: String, times: Int)', parameters: [{ label: [6, 18] }, { label: [20, 30] }] }],
          activeSignature: 0,
          activeParameter: 0,
        },
      },
    ],
    'textDocument/hover': [{ respond: { contents: { kind: 'plaintext', value: 'fake hover' } } }],
  },
};
const signatureSource = ['package demo', '', 'fun greet(name: String, times: Int) {}', '', 'fun main() {', '    ', '}', ''].join('\n');

describe.runIf(run)('completion and signature help against the fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let kinds: FakeSession;
  let ranges: FakeSession;
  let signature: FakeSession;

  /** Completion requests the server received after the first `since` log entries. */
  const completionsSince = (session: FakeSession, since: number) =>
    session
      .log()
      .slice(since)
      .map((l) => l.message)
      .filter((m) => m.method === 'textDocument/completion');

  async function open(session: FakeSession): Promise<void> {
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
  }

  /** A hover request the server must log: everything the editor sent before it is in the log then. */
  async function barrier(session: FakeSession): Promise<void> {
    const before = received(session, 'textDocument/hover').length;
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(() => received(session, 'textDocument/hover').length, { timeout: 15_000 }).toBeGreaterThan(before);
    await page.keyboard.press('Escape');
  }

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    kinds = await startFakeSession(stack, { binary: 'kotlin-lsp', script: kindsScript, files: { [MAIN]: kindsSource } });
    ranges = await startFakeSession(stack, { binary: 'kotlin-lsp', script: rangesScript, files: { [MAIN]: rangesSource } });
    signature = await startFakeSession(stack, { binary: 'kotlin-lsp', script: signatureScript, files: { [MAIN]: signatureSource } });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('S18/S19 trigger kinds reach the server: 1 for Ctrl+Space, 2 with the typed trigger character, 3 when typing on after isIncomplete:true', async () => {
    await open(kinds);
    const uri = kinds.fileUri(MAIN);

    let mark = kinds.log().length;
    await setCaret(page, 7, 5);
    await page.keyboard.press('Control+Space');
    await suggestRows(page).first().waitFor();
    await expect.poll(() => completionsSince(kinds, mark).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(completionsSince(kinds, mark)[0]!.params).toEqual({ textDocument: { uri }, position: { line: 6, character: 4 }, context: { triggerKind: 1 } });
    await page.keyboard.press('Escape');

    mark = kinds.log().length;
    await setCaret(page, 5, 13);
    await page.keyboard.type('.');
    await suggestRows(page).first().waitFor();
    await expect.poll(() => completionsSince(kinds, mark).length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(completionsSince(kinds, mark)[0]!.params).toEqual({
      textDocument: { uri },
      position: { line: 4, character: 13 },
      context: { triggerKind: 2, triggerCharacter: '.' },
    });

    // The list was incomplete: typing on while it shows asks the server again, with kind 3 (S19).
    mark = kinds.log().length;
    await page.keyboard.type('k');
    await expect.poll(() => completionsSince(kinds, mark).map((m) => m.params.context), { timeout: 15_000 }).toContainEqual({ triggerKind: 3 });
    expect(completionsSince(kinds, mark)[0]!.params.position).toEqual({ line: 4, character: 14 });
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n')).toContain('kindText');
    await page.keyboard.press('Escape');
  });

  it('S20 automatic completion only on advertised trigger characters, and every standard kind renders with its Monaco category', async () => {
    await open(kinds);
    // ':' and '(' are not advertised: typing them sends no completion request at all.
    await setCaret(page, 7, 5);
    const mark = kinds.log().length;
    await page.keyboard.type(':(');
    await expect
      .poll(
        () =>
          kinds
            .log()
            .slice(mark)
            .some((l) => l.message.method === 'textDocument/didChange'),
        { timeout: 15_000 },
      )
      .toBe(true);
    await barrier(kinds);
    expect(completionsSince(kinds, mark)).toEqual([]);
    expect(await suggestRows(page).count()).toBe(0);

    // The advertised '.' does (the positive side of the same check).
    await page.keyboard.type('.');
    await expect
      .poll(() => completionsSince(kinds, mark).map((m) => m.params.context), { timeout: 15_000 })
      .toContainEqual({ triggerKind: 2, triggerCharacter: '.' });

    // Every LSP kind shows the icon of the Monaco kind of the same name.
    await suggestRows(page).first().waitFor();
    const seen: Array<[string, string]> = [];
    for (let i = 0; i < LSP_KINDS.length; i++) {
      const row = page.locator('.editor-widget.suggest-widget.visible .monaco-list-row.focused');
      const label = (await row.locator('.label-name').first().innerText()).trim();
      const icon = (await row.locator('.suggest-icon').getAttribute('class')) ?? '';
      seen.push([label, icon.split(/\s+/).find((c) => c.startsWith('codicon-')) ?? '']);
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Escape');
    expect(seen).toEqual(LSP_KINDS.map((name) => [`kind${name}`, `codicon-symbol-${kebab(name)}`]));
  });

  it('S22 without textEdit the current word is replaced; a TextEdit range and an InsertReplaceEdit (insert vs replace) override it', async () => {
    await open(ranges);
    const line = async (n: number) => (await editorText(page)).split('\n')[n - 1];

    // No textEdit: the word before the caret ("fal") is the range.
    await setCaret(page, 4, 8);
    await page.keyboard.press('Control+Space');
    await focusSuggestion(page, 'fallbackItem');
    await page.keyboard.press('Enter');
    await expect.poll(() => line(4)).toBe('    fallbackItem');

    // A TextEdit whose range is wider than the word ("abc.de", not just "de").
    await setCaret(page, 5, 11);
    await page.keyboard.press('Control+Space');
    await focusSuggestion(page, 'textEditItem');
    await page.keyboard.press('Enter');
    await expect.poll(() => line(5)).toBe('    replacedByTextEdit');

    // InsertReplaceEdit with the caret inside "foo|bar": Enter inserts over the insert range,
    // Shift+Enter (Monaco's alternative) replaces the whole replace range.
    await setCaret(page, 6, 8);
    await page.keyboard.press('Control+Space');
    await focusSuggestion(page, 'insertReplaceItem');
    await page.keyboard.press('Enter');
    await expect.poll(() => line(6)).toBe('    quxbar');
    await page.keyboard.press('Control+Z');
    await expect.poll(() => line(6)).toBe('    foobar');
    await setCaret(page, 6, 8);
    await page.keyboard.press('Control+Space');
    await focusSuggestion(page, 'insertReplaceItem');
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => line(6)).toBe('    qux');
  });

  it('S21 signature help keeps the advertised trigger and retrigger characters; a server without it gets no request', async () => {
    await open(signature);
    const uri = signature.fileUri(MAIN);
    const requests = () => received(signature, 'textDocument/signatureHelp').map((m) => m.params);
    await setCaret(page, 6, 5);
    await page.keyboard.type('greet(');
    await expect.poll(() => requests().map((p) => p.context?.triggerCharacter), { timeout: 15_000 }).toContain('(');
    const first = requests().find((p) => p.context?.triggerCharacter === '(')!;
    expect(first).toMatchObject({
      textDocument: { uri },
      position: { line: 5, character: 10 },
      context: { triggerKind: 2, triggerCharacter: '(', isRetrigger: false },
    });
    await expect.poll(() => page.locator('.parameter-hints-widget.visible').innerText(), { timeout: 15_000 }).toContain('greet(name: String, times: Int)');

    await page.keyboard.type('"a",');
    await expect.poll(() => requests().some((p) => p.context?.triggerCharacter === ','), { timeout: 15_000 }).toBe(true);
    const retrigger = requests().find((p) => p.context?.triggerCharacter === ',')!;
    expect(retrigger.context).toMatchObject({
      triggerKind: 2,
      isRetrigger: true,
      activeSignatureHelp: { signatures: [{ label: 'greet(name: String, times: Int)' }] },
    });
    await page.keyboard.press('Escape');

    // The completion server of the other session never advertised signature help: typing '(' there sends nothing.
    await open(kinds);
    await setCaret(page, 7, 5);
    const mark = kinds.log().length;
    await page.keyboard.type('greet(');
    await expect
      .poll(
        () =>
          kinds
            .log()
            .slice(mark)
            .some((l) => l.message.method === 'textDocument/didChange'),
        { timeout: 15_000 },
      )
      .toBe(true);
    await barrier(kinds);
    expect(received(kinds, 'textDocument/signatureHelp')).toEqual([]);
    expect(await page.locator('.parameter-hints-widget.visible').count()).toBe(0);
  });
});
