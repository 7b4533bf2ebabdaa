import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  caretPosition,
  hoverRows,
  openFile,
  openSession,
  placeCaret,
  received,
  runEditorAction,
  setCaret,
  startEditorStack,
  startFakeSession,
  suggestRows,
  waitForLspState,
  withEditor,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * A TypeScript server that advertises only completion (the fake, installed as
 * `typescript-language-server` first on the task PATH), next to Monaco's TypeScript built-ins:
 * what is not advertised is never requested and stays built-in (S16); the built-in's `file://`
 * navigation targets open task files through the workspace identity of the ready handshake
 * (S38, S34), also after the server stopped.
 *
 * The task has two repositories, `app` and `lib`, so the workspace root is their common folder
 * and the handshake carries their subpaths.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'app/src/main.ts';
const HELPERS = 'lib/types/helpers.d.ts';
const OUTSIDE_LIB = 'file:///usr/share/kandev-e2e-outside/outside.d.ts';
const mainSource = [
  '/** Adds two numbers. */',
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  'const sum = add(1, 2);',
  'helperInside();',
  'helperOutside();',
  '',
  '',
].join('\n');
const helpersSource = 'declare function helperInside(): void;\n';

const script: FakeScript = {
  capabilities: { textDocumentSync: { openClose: true, change: 2 }, completionProvider: { triggerCharacters: ['.'] } },
  rules: {
    // The first completion answers one item; every later one an empty list.
    'textDocument/completion': [
      { once: '$ONCE', actions: [{ respond: { isIncomplete: false, items: [{ label: 'fakeCompletion', kind: 3 }] } }] },
      { respond: { isIncomplete: false, items: [] } },
    ],
  },
};

describe.runIf(run)('Monaco built-ins beside a TypeScript server that advertises only completion (fake)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;
  const readyFrames: Array<Record<string, unknown>> = [];

  const activeTab = (path: string) => page.locator(`[data-testid="editor-tab"][data-path="${path}"][data-active="true"]`);

  /**
   * A completion request the server logs: every request the editor sent before it is logged by then.
   * Once in a CI run (load 7) the first trigger reached no server within 15 s and no rerun here
   * could repeat it, so a trigger that sent nothing in 5 s is retried, and what the editor showed
   * meanwhile is printed (and, after the third, fails the test) so the next occurrence says why.
   * The retry changes nothing the callers assert: they check what the server never received.
   */
  async function barrier(): Promise<void> {
    const before = received(session, 'textDocument/completion').length;
    const misses: string[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await runEditorAction(page, 'editor.action.triggerSuggest');
      const sent = await expect
        .poll(() => received(session, 'textDocument/completion').length, { timeout: 5_000 })
        .toBeGreaterThan(before)
        .then(() => true)
        .catch(() => false);
      if (sent) break;
      misses.push(`attempt ${attempt}: ${await editorState()}`);
      if (attempt === 3) throw new Error(`no completion reached the server after 3 triggers:\n${misses.join('\n')}`);
      await page.keyboard.press('Escape');
    }
    if (misses.length > 0) console.warn(`barrier: a trigger sent nothing at first:\n${misses.join('\n')}`);
    await page.keyboard.press('Escape');
  }

  /** What the page shows around the editor: focus, open widgets and editors (for a barrier's miss). */
  function editorState(): Promise<string> {
    return page.evaluate(() => {
      const monaco = (window as any).__kandev.monaco;
      const editors = monaco.editor.getEditors() as any[];
      const visible = (selector: string) => [...document.querySelectorAll(selector)].filter((e) => (e as HTMLElement).offsetParent !== null).length;
      return JSON.stringify({
        active: `${document.activeElement?.tagName}.${String(document.activeElement?.className).slice(0, 80)}`,
        editors: editors.map((e) => ({
          focus: e.hasTextFocus(),
          model: e.getModel()?.uri.path,
          readOnly: e.getOption(monaco.editor.EditorOption.readOnly),
          position: e.getPosition(),
        })),
        suggest: visible('.suggest-widget.visible'),
        references: visible('.reference-zone-widget'),
        hover: visible('.monaco-hover:not(.hidden)'),
        parameterHints: visible('.parameter-hints-widget.visible'),
      });
    });
  }

  /** Records what Monaco's editor service answers for each open request (null: nobody handled it). */
  async function recordOpens(): Promise<void> {
    await withEditor(page, (editor) => {
      const w = window as any;
      if (w.__kandevOpens) return;
      w.__kandevOpens = [];
      const service = editor._codeEditorService;
      const original = service.openCodeEditor.bind(service);
      service.openCodeEditor = async (input: any, source: any, sideBySide: any) => {
        const result = await original(input, source, sideBySide);
        w.__kandevOpens.push({ uri: String(input.resource), handled: result !== null });
        return result;
      };
    });
  }
  const opens = (): Promise<Array<{ uri: string; handled: boolean }>> => page.evaluate(() => (window as any).__kandevOpens);

  beforeAll(async () => {
    stack = await startEditorStack();
    const once = join(stack.home, 'completion-once');
    session = await startFakeSession(stack, {
      binary: 'typescript-language-server',
      script: JSON.parse(JSON.stringify(script).replace('$ONCE', once)) as FakeScript,
      files: { [MAIN]: mainSource, [HELPERS]: helpersSource, 'app/tsconfig.json': '{}\n' },
      repositories: ['app', 'lib'],
    });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    page.on('websocket', (ws) => {
      if (!ws.url().includes(`/lsp/${session.sessionId}`)) return;
      ws.on('framereceived', (frame) => {
        const value = JSON.parse(String(frame.payload)) as Record<string, unknown>;
        if (value.status === 'ready') readyFrames.push(value);
      });
    });
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'typescript', 'ready');
    // Built-in navigation targets as regular file:// URIs: one inside the workspace, one outside.
    await withEditor(
      page,
      (_editor, monaco, libs: Array<[string, string]>) => {
        for (const [content, uri] of libs) monaco.typescript.typescriptDefaults.addExtraLib(content, uri);
      },
      [
        [helpersSource, session.fileUri(HELPERS)],
        ['declare function helperOutside(): void;\n', OUTSIDE_LIB],
      ],
    );
    await recordOpens();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('S34 the server sees documents under the canonical workspace URI and repository subpaths of the ready handshake', () => {
    expect(readyFrames).toHaveLength(1);
    expect(readyFrames[0]).toMatchObject({ workspaceUri: session.fileUri(''), repoSubpaths: ['app', 'lib'] });
    const init = received(session, 'initialize')[0]!;
    expect(init.params.rootUri).toBe(session.fileUri(''));
    expect(received(session, 'textDocument/didOpen').map((m) => m.params.textDocument.uri)).toEqual([session.fileUri(MAIN)]);
  });

  it('S16 the advertised completion replaces the built-in one on this model: server items show, and an empty server answer shows nothing', async () => {
    await openFile(page, MAIN);
    await setCaret(page, 9, 1);
    await page.keyboard.press('Control+Space');
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n'), { timeout: 15_000 }).toBe('fakeCompletion');
    await page.keyboard.press('Escape');

    // The server now answers nothing. Monaco's built-in would offer `console` here; suppressed,
    // the widget settles on "No suggestions." once every provider has answered. The word arrives as
    // one input: typed a letter at a time, Monaco's word-based provider can be asked while the word
    // is `co` and answer from a worker copy that already holds `conso`, offering the typed word
    // itself (seen under load), which is Monaco's race, not the server's answer under test.
    await page.keyboard.insertText('conso');
    try {
      const before = received(session, 'textDocument/completion').length;
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Space');
      await page.locator('.editor-widget.suggest-widget.visible .message').filter({ hasText: 'No suggestions.' }).waitFor({ timeout: 30_000 });
      expect(await suggestRows(page).count()).toBe(0);
      expect(received(session, 'textDocument/completion').length).toBeGreaterThan(before);
    } finally {
      // The typed word goes even when a check fails: left in, it broke the next test's code too.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Z');
    }
  });

  it('S16 unadvertised hover, signature help, definition and references send nothing and stay built-in', async () => {
    await openFile(page, MAIN);
    // Hover: Monaco's built-in answers (one row, the TypeScript signature).
    await placeCaret(page, 'add(1', 1);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(async () => (await hoverRows(page)).join('\n'), { timeout: 30_000 }).toContain('add(a: number, b: number): number');
    expect(await hoverRows(page)).toHaveLength(1);
    await page.keyboard.press('Escape');

    // Signature help: the built-in parameter hints show while typing a call.
    await setCaret(page, 9, 1);
    await page.keyboard.type('add(');
    await expect.poll(() => page.locator('.parameter-hints-widget.visible').innerText(), { timeout: 30_000 }).toContain('a: number');
    await page.keyboard.press('Escape');
    await page.keyboard.type('1, 2);');

    // Definition: the built-in jumps to the declaration in the same file.
    await placeCaret(page, 'add(1', 1);
    await page.keyboard.press('F12');
    await expect.poll(() => caretPosition(page), { timeout: 30_000 }).toMatchObject({ lineNumber: 2 });

    // References: the built-in's reference list opens.
    await placeCaret(page, 'add(1', 1);
    await page.keyboard.press('Shift+F12');
    await page.locator('.reference-zone-widget').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');

    await barrier();
    for (const method of ['textDocument/hover', 'textDocument/signatureHelp', 'textDocument/definition', 'textDocument/references']) {
      expect(received(session, method), method).toEqual([]);
    }
  });

  it('S38 a built-in file:// target inside the workspace opens the task file; one outside is reported unhandled', async () => {
    await openFile(page, MAIN);
    await placeCaret(page, 'helperInside();', 2);
    await page.keyboard.press('F12');
    await activeTab(HELPERS).waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid="editor"][data-path="${HELPERS}"]`).waitFor();
    expect(await opens()).toContainEqual({ uri: session.fileUri(HELPERS), handled: true });

    await page.locator(`[data-testid="editor-tab"][data-path="${MAIN}"] .tab-label`).click();
    await activeTab(MAIN).waitFor();
    await placeCaret(page, 'helperOutside();', 2);
    await page.keyboard.press('F12');
    await expect.poll(opens, { timeout: 30_000 }).toContainEqual({ uri: OUTSIDE_LIB, handled: false });
    await activeTab(MAIN).waitFor();
    expect(await page.locator('[data-testid="editor-tab"]').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-path')))).toEqual([MAIN, HELPERS]);
  });

  it('S34 after the server stops, built-in navigation still maps file:// targets through the handshake identity', async () => {
    await page.locator(`[data-testid="editor-tab"][data-path="${HELPERS}"] .tab-close`).click();
    await activeTab(MAIN).waitFor();
    await page.locator('[data-testid="lsp-status"][data-language="typescript"] [data-testid="lsp-stop"]').click();
    await waitForLspState(page, 'typescript', 'off');
    await placeCaret(page, 'helperInside();', 2);
    await page.keyboard.press('F12');
    await activeTab(HELPERS).waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid="tree-node"][data-path="${HELPERS}"][data-active="true"]`).waitFor();
  });
});
