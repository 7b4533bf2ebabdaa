import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  caretPosition,
  hoverRows,
  markers,
  openFile,
  openSession,
  putSettings,
  received,
  runEditorAction,
  serverDocument,
  sessionModelText,
  setCaret,
  startEditorStack,
  startFakeSession,
  suggestRows,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Two task sessions in one window, each with its own fake server (installed as `kotlin-lsp`):
 * one crashing leaves the other whole (S30); two sessions on the very same task-host folder keep
 * their own models while both servers see the same clean file URI (S32); a search hit of one
 * session reveals only that session's model (S37).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const OTHER = 'src/Other.kt';
const mainSource = ['package demo', '', 'fun main() {', '    val greeting = other()', '    println(greeting) // needle', '', '}', ''].join('\n');
const otherSource = ['package demo', '', 'fun other(): String = "other"', ''].join('\n');
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

/** A server named `name`: diagnostics on open, hover, completion, definition; `crashOnReferences` exits on references. */
function serverScript(name: string, crashOnReferences = false) {
  return (fileUri: (path: string) => string): FakeScript => ({
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      hoverProvider: true,
      completionProvider: {},
      definitionProvider: true,
      referencesProvider: true,
    },
    rules: {
      'textDocument/didOpen': [
        {
          notify: 'textDocument/publishDiagnostics',
          params: { uri: '$uri', version: '$version', diagnostics: [{ range: range(3, 4, 7), severity: 2, message: `diagnostic from ${name}` }] },
        },
      ],
      'textDocument/hover': [{ respond: { contents: { kind: 'plaintext', value: `hover from ${name}` } } }],
      'textDocument/completion': [{ respond: { isIncomplete: false, items: [{ label: `completionFrom${name}`, kind: 3 }] } }],
      'textDocument/definition': [{ respond: { uri: fileUri(OTHER), range: range(2, 4, 9) } }],
      'textDocument/references': crashOnReferences ? [{ exit: 1 }] : [{ respond: [] }],
    },
  });
}

describe.runIf(run)('two sessions in one window, each with its own fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;

  async function open(session: FakeSession, path = MAIN, state = 'ready'): Promise<void> {
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, path);
    await waitForLspState(page, 'kotlin', state);
  }

  /** Whether the window holds a model for a session's path (tab or navigation placeholder). */
  const hasModel = (session: FakeSession, path: string) =>
    page.evaluate(
      ({ id, p }) => {
        const monaco = (window as any).__kandev.monaco;
        return monaco.editor.getModel(monaco.Uri.from({ scheme: 'kandev-session', authority: id, path: `/${p}` })) !== null;
      },
      { id: session.sessionId, p: path },
    );

  const modelText = (session: FakeSession, path: string) => sessionModelText(page, session.sessionId, path);

  const lspMarkers = async (session: FakeSession) =>
    (await markers(page, session.sessionId, MAIN)).filter((m) => m.owner.startsWith('kandev-lsp.')).map((m) => m.message);

  beforeAll(async () => {
    // These suites are about a server's final exit (4006, Retry); restarts are covered in faults-restart.
    stack = await startEditorStack({ KANDEV_LSP_RESTART_LIMIT: '0' });
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  let crashing: FakeSession;
  let crashedOwner: string;

  it("S30 one session's server crashing removes only its providers, markers and placeholder models; the other keeps working", async () => {
    const files = { [MAIN]: mainSource, [OTHER]: otherSource };
    crashing = await startFakeSession(stack, { binary: 'kotlin-lsp', script: serverScript('A', true), files });
    const steady = await startFakeSession(stack, { binary: 'kotlin-lsp', script: serverScript('B'), files });

    // Both live: diagnostics on each model, and a peeked definition target loaded as a placeholder model.
    for (const [session, name] of [
      [crashing, 'A'],
      [steady, 'B'],
    ] as const) {
      await open(session);
      await expect.poll(() => lspMarkers(session), { timeout: 15_000 }).toEqual([`diagnostic from ${name}`]);
      await setCaret(page, 4, 22);
      await runEditorAction(page, 'editor.action.peekDefinition');
      await expect.poll(() => received(session, 'textDocument/definition').length, { timeout: 15_000 }).toBe(1);
      await expect.poll(() => hasModel(session, OTHER), { timeout: 15_000 }).toBe(true);
      await page.locator('.peekview-widget').first().waitFor();
      await page.keyboard.press('Escape');
    }
    expect(await page.locator(`[data-testid="editor-tab"][data-path="${OTHER}"]`).count()).toBe(0);

    // A's server exits while answering references.
    await open(crashing);
    crashedOwner = (await markers(page, crashing.sessionId, MAIN)).find((m) => m.owner.startsWith('kandev-lsp.'))!.owner;
    await setCaret(page, 4, 22);
    await page.keyboard.press('Shift+F12');
    await waitForLspState(page, 'kotlin', 'error');
    await expect.poll(() => lspMarkers(crashing), { timeout: 15_000 }).toEqual([]);
    await expect.poll(() => hasModel(crashing, OTHER), { timeout: 15_000 }).toBe(false);
    expect(await hasModel(crashing, MAIN)).toBe(true); // its tab stays

    // B is untouched: markers, placeholder, and working providers.
    expect(await lspMarkers(steady)).toEqual(['diagnostic from B']);
    expect(await hasModel(steady, OTHER)).toBe(true);
    await open(steady);
    await setCaret(page, 5, 14);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(async () => (await hoverRows(page)).join('\n'), { timeout: 15_000 }).toContain('hover from B');
    await page.keyboard.press('Escape');
    await setCaret(page, 6, 1);
    await page.keyboard.press('Control+Space');
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n'), { timeout: 15_000 }).toContain('completionFromB');
    await page.keyboard.press('Escape');
    expect(new Set(steady.log().map((l) => l.pid)).size).toBe(1);
  });

  it('S33 Retry replaces the crashed generation: nothing of the old one touches the new server, markers or providers', async () => {
    await open(crashing, MAIN, 'error');
    const firstPid = crashing.log()[0]!.pid;
    await page.locator('[data-testid="lsp-status"][data-language="kotlin"] [data-testid="lsp-retry"]').click();
    await waitForLspState(page, 'kotlin', 'ready');
    await expect.poll(() => lspMarkers(crashing), { timeout: 15_000 }).toEqual(['diagnostic from A']);
    const owners = (await markers(page, crashing.sessionId, MAIN)).filter((m) => m.owner.startsWith('kandev-lsp.')).map((m) => m.owner);
    expect(owners).toHaveLength(1);
    expect(owners[0]).not.toBe(crashedOwner);

    // A new process, initialized once, answers the new generation's providers.
    const pids = [...new Set(crashing.log().map((l) => l.pid))];
    expect(pids).toHaveLength(2);
    const secondPid = pids.find((p) => p !== firstPid)!;
    expect(
      crashing
        .log()
        .filter((l) => l.message.method === 'initialize')
        .map((l) => l.pid),
    ).toEqual([firstPid, secondPid]);
    await setCaret(page, 5, 14);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(async () => (await hoverRows(page)).join('\n'), { timeout: 15_000 }).toContain('hover from A');
    await page.keyboard.press('Escape');
    expect(
      crashing
        .log()
        .filter((l) => l.message.method === 'textDocument/hover')
        .map((l) => l.pid),
    ).toEqual([secondPid]);
    await waitForLspState(page, 'kotlin', 'ready');
  });

  describe('two sessions on the same task-host folder', () => {
    let c: FakeSession;
    let d: FakeSession;

    beforeAll(async () => {
      const shared = join(mkdtempSync(join(stack.home, 'shared-')), 'workspace');
      const files = { [MAIN]: mainSource, [OTHER]: otherSource };
      c = await startFakeSession(stack, { binary: 'kotlin-lsp', script: serverScript('C'), files, workspace: shared });
      d = await startFakeSession(stack, { binary: 'kotlin-lsp', script: serverScript('D'), files, workspace: shared });
    });

    it('S32 session-scoped models keep their own content while both servers get the same clean file:// URI', async () => {
      const uri = c.fileUri(MAIN);
      expect(d.fileUri(MAIN)).toBe(uri);
      await open(c);
      await setCaret(page, 6, 1);
      await page.keyboard.type('    val fromC = 1');
      await open(d);
      await setCaret(page, 6, 1);
      await page.keyboard.type('    val fromD = 2');

      const textC = await modelText(c, MAIN);
      const textD = await modelText(d, MAIN);
      expect(textC).toContain('fromC');
      expect(textC).not.toContain('fromD');
      expect(textD).toContain('fromD');
      expect(textD).not.toContain('fromC');

      // Each server holds its own session's buffer under the one task-host URI.
      await expect.poll(() => serverDocument(c, uri)?.text, { timeout: 15_000 }).toBe(textC);
      await expect.poll(() => serverDocument(d, uri)?.text, { timeout: 15_000 }).toBe(textD);
      for (const session of [c, d]) {
        const uris = session
          .log()
          .map((l) => l.message.params?.textDocument?.uri)
          .filter((u): u is string => typeof u === 'string');
        expect(new Set(uris)).toEqual(new Set([uri]));
      }
    });

    it("S37 a search hit of one session reveals only that session's model, mounted or pending", async () => {
      const hit = page.locator(`[data-testid="search-hit"][data-path="${MAIN}"]`);
      // D's editor shows Main.kt with the caret at the top.
      await open(d);
      await setCaret(page, 1, 1);

      // C, immediate reveal: Main.kt is showing when its hit is chosen.
      await open(c);
      await setCaret(page, 1, 1);
      await page.locator('[data-testid="search-input"]').fill('needle');
      await hit.first().click();
      await expect.poll(() => caretPosition(page)).toEqual({ lineNumber: 5, column: Number(await hit.first().getAttribute('data-column')) });
      expect(await hit.first().getAttribute('data-line')).toBe('5');

      // C, pending reveal: Other.kt is showing; the hit switches to Main.kt and reveals there.
      await openFile(page, OTHER);
      await setCaret(page, 1, 1);
      await hit.first().click();
      await page.locator(`[data-testid="editor-tab"][data-path="${MAIN}"][data-active="true"]`).waitFor();
      await expect.poll(() => caretPosition(page)).toMatchObject({ lineNumber: 5 });

      // D never received either reveal: its Main.kt editor mounts with the caret where it was.
      await open(d);
      await page.locator(`[data-testid="editor"][data-path="${MAIN}"]`).waitFor();
      expect(await caretPosition(page)).toEqual({ lineNumber: 1, column: 1 });
    });
  });
});
