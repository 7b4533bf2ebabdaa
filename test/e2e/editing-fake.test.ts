import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  caretPosition,
  editorText,
  markers,
  runEditorAction,
  withEditor,
  openFile,
  received,
  setCaret,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import { inLightAndDark, screenshot } from '../support/app.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Editing flows real servers cannot produce on demand, against the scriptable fake server
 * installed as `kotlin-lsp`: a file changed on disk during a rename, codeAction/resolve followed
 * by a command whose workspace/applyEdit the browser applies, pull diagnostics with result ids
 * (and at once after a reload resumes the lease), and workspaceSymbol/resolve.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const OTHER = 'src/Other.kt';
const files = {
  [MAIN]: ['fun main() {', '    helper()', '}', ''].join('\n'),
  [OTHER]: ['fun helper() {}', '', 'fun target() {}', ''].join('\n'),
};
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const diagnostic = (message: string) => ({ range: range(0, 4, 8), message, severity: 1, source: 'fake' });

function script(fileUri: (path: string) => string): FakeScript {
  const renameEdit = {
    changes: { [fileUri(MAIN)]: [{ range: range(1, 4, 10), newText: 'assist' }], [fileUri(OTHER)]: [{ range: range(0, 4, 10), newText: 'assist' }] },
  };
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: 2, save: true },
      renameProvider: { prepareProvider: true },
      codeActionProvider: { resolveProvider: true },
      executeCommandProvider: { commands: ['fake.after'] },
      diagnosticProvider: { identifier: 'fake', interFileDependencies: false, workspaceDiagnostics: false },
      workspaceSymbolProvider: { resolveProvider: true },
      inlayHintProvider: { resolveProvider: true },
      documentHighlightProvider: true,
      foldingRangeProvider: true,
    },
    rules: {
      'textDocument/prepareRename': [{ respond: { range: range(1, 4, 10), placeholder: 'helper' } }],
      'textDocument/rename': [{ respond: renameEdit }],
      'textDocument/codeAction': [{ respond: [{ title: 'Insert a greeting', kind: 'quickfix', data: { id: 7 } }] }],
      'codeAction/resolve': [
        {
          respond: {
            title: 'Insert a greeting',
            kind: 'quickfix',
            data: { id: 7 },
            edit: { changes: { [fileUri(MAIN)]: [{ range: range(0, 0, 0), newText: '// hello\n' }] } },
            command: { title: 'after', command: 'fake.after', arguments: [7] },
          },
        },
      ],
      'workspace/executeCommand': [
        // Line 3 (0-based): after the action's own edit inserted a line above.
        {
          request: 'workspace/applyEdit',
          params: { label: 'after', edit: { changes: { [fileUri(MAIN)]: [{ range: range(3, 0, 1), newText: '} // done' }] } } },
        },
        { respond: null },
      ],
      'textDocument/diagnostic': [
        {
          sequence: 'pull',
          steps: [
            [{ respond: { kind: 'full', resultId: 'r1', items: [diagnostic('first pull')] } }],
            [{ respond: { kind: 'unchanged', resultId: 'r1' } }],
            [{ respond: { kind: 'full', resultId: 'r2', items: [] } }],
            [{ respond: { kind: 'full', resultId: 'r3', items: [diagnostic('after resume')] } }],
          ],
        },
      ],
      'textDocument/didSave': [{ request: 'workspace/diagnostic/refresh' }],
      // The broker sends didClose when the browser detaches: from the second one on (the last
      // test closes the page), the server asks for an edit while nobody is attached.
      'textDocument/didClose': [
        {
          sequence: 'close',
          steps: [
            [],
            [{ request: 'workspace/applyEdit', params: { edit: { changes: { [fileUri(MAIN)]: [{ range: range(0, 0, 0), newText: '// late\n' }] } } } }],
          ],
        },
      ],
      'textDocument/inlayHint': [{ respond: [{ position: { line: 1, character: 10 }, label: ': Unit', kind: 1, paddingLeft: true, data: { id: 3 } }] }],
      'inlayHint/resolve': [
        { respond: { position: { line: 1, character: 10 }, label: ': Unit', kind: 1, paddingLeft: true, tooltip: 'returns nothing', data: { id: 3 } } },
      ],
      'textDocument/documentHighlight': [{ respond: [{ range: range(2, 4, 10), kind: 3 }] }],
      // Folds the first line over the second: no indentation rule would produce this range.
      'textDocument/foldingRange': [{ respond: [{ startLine: 0, endLine: 1, kind: 'region' }] }],
      'workspace/symbol': [{ respond: [{ name: 'target', kind: 12, location: { uri: fileUri(OTHER) }, data: { id: 1 } }] }],
      'workspaceSymbol/resolve': [{ respond: { name: 'target', kind: 12, location: { uri: fileUri(OTHER), range: range(2, 4, 10) } } }],
    },
  };
}

describe.runIf(run)('editing flows against the scripted fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  const notices = () => page.locator('[data-testid="editing-notices"] .editing-notice').allInnerTexts();

  beforeAll(async () => {
    ({ stack, session, browser, page } = await openFakeEditor({
      settings: { lsp_editor_features: { kotlin: { inlay_hints: true } } },
      session: { binary: 'kotlin-lsp', script, files },
      file: MAIN,
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('pull diagnostics: on open, on change with the previous result id ("unchanged" keeps markers), on workspace/diagnostic/refresh', async () => {
    const messages = async () => (await markers(page, session.sessionId, MAIN)).map((m) => m.message);
    await expect.poll(messages, { timeout: 30_000 }).toEqual(['first pull']);
    expect(received(session, 'textDocument/diagnostic')[0]!.params).toEqual({ textDocument: { uri: session.fileUri(MAIN) }, identifier: 'fake' });
    await setCaret(page, 3, 2);
    await page.keyboard.type(' ');
    await expect.poll(() => received(session, 'textDocument/diagnostic').length, { timeout: 15_000 }).toBe(2);
    expect(received(session, 'textDocument/diagnostic')[1]!.params.previousResultId).toBe('r1');
    expect(await messages()).toEqual(['first pull']);
    await page.keyboard.press('Control+S');
    // didSave -> the server asks for a refresh -> the third pull answers "no diagnostics".
    await expect.poll(messages, { timeout: 15_000 }).toEqual([]);
    expect(received(session, 'textDocument/diagnostic').at(-1)!.params.previousResultId).toBe('r1');
  });

  it("pull diagnostics after a reload resumes the lease: the reopened file gets the server's current diagnostics at once", async () => {
    await page.reload();
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
    await expect.poll(async () => (await markers(page, session.sessionId, MAIN)).map((m) => m.message), { timeout: 30_000 }).toEqual(['after resume']);
    expect(received(session, 'initialize')).toHaveLength(1);
  });

  it('rename: a file changed on disk since it was read aborts the whole edit, nothing is written and the open file is untouched', async () => {
    const mainBefore = await editorText(page);
    const external = 'fun helper() {} // edited elsewhere\n\nfun target() {}\n';
    // Between reading Other.kt and writing the batch, someone else changes it on disk.
    await page.route('**/files/apply', async (route) => {
      writeFileSync(join(session.workspace, OTHER), external);
      await route.continue();
    });
    await setCaret(page, 3, 6);
    await page.keyboard.press('F2');
    const input = page.locator('.rename-box input');
    await input.waitFor({ timeout: 15_000 });
    expect(await input.inputValue()).toBe('helper');
    await input.fill('assist');
    await page.keyboard.press('Enter');
    await expect.poll(notices, { timeout: 15_000 }).toEqual([expect.stringContaining(`Changed on disk since it was read: ${OTHER}. Nothing was written`)]);
    // The notice stays until dismissed, so it takes its own room above the status bar: the session
    // view (the editor, Problems) ends where the notice begins, and nothing of it is drawn over.
    const rows = await page.evaluate(() =>
      ['.session-layout', '[data-testid="editing-notices"]', '[data-testid="status-bar"]'].map((selector) => {
        const box = document.querySelector(selector)?.getBoundingClientRect();
        return box ? { top: Math.round(box.top), bottom: Math.round(box.bottom) } : undefined;
      }),
    );
    const [sessionView, noticeStrip, statusBar] = rows;
    expect(sessionView && noticeStrip && statusBar, JSON.stringify(rows)).toBeTruthy();
    expect(sessionView!.bottom, JSON.stringify(rows)).toBeLessThanOrEqual(noticeStrip!.top);
    expect(noticeStrip!.bottom, JSON.stringify(rows)).toBeLessThanOrEqual(statusBar!.top);
    await inLightAndDark(page, async (scheme) => void (await screenshot(page, `editing-notice-desktop-${scheme}`)));
    expect(await editorText(page)).toBe(mainBefore);
    expect(readFileSync(join(session.workspace, OTHER), 'utf8')).toBe(external);
    await page.unroute('**/files/apply');
  });

  it('rename without a conflict applies to the open model and writes the unopened file', async () => {
    await setCaret(page, 3, 6);
    await page.keyboard.press('F2');
    const input = page.locator('.rename-box input');
    await input.waitFor({ timeout: 15_000 });
    await input.fill('assist');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain('    assist()');
    await expect.poll(() => readFileSync(join(session.workspace, OTHER), 'utf8')).toBe('fun assist() {} // edited elsewhere\n\nfun target() {}\n');
  });

  it("a code action resolves, applies its edit, runs its command, and the server's workspace/applyEdit is applied by the browser", async () => {
    await setCaret(page, 2, 6);
    await page.keyboard.press('Control+.');
    const row = page.locator('.action-widget .monaco-list-row.action', { hasText: 'Insert a greeting' });
    await row.first().waitFor({ timeout: 30_000 });
    // The only action is focused; Enter runs it, as a person would.
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toBe('// hello\nfun main() {\n    assist()\n} // done \n');
    expect(received(session, 'codeAction/resolve')).toHaveLength(1);
    expect(received(session, 'workspace/executeCommand')[0]!.params).toEqual({ command: 'fake.after', arguments: [7] });
    await expect.poll(() => session.log().some((l) => (l.message as { result?: { applied?: boolean } }).result?.applied === true)).toBe(true);
  });

  it('Go to Symbol in Workspace (Ctrl+T) searches workspace/symbol and resolves the location of the chosen symbol', async () => {
    await setCaret(page, 1, 1);
    await page.keyboard.press('Control+T');
    const picker = page.locator('[data-testid="workspace-symbols"]');
    await picker.locator('input').fill('tar');
    await expect.poll(() => received(session, 'workspace/symbol').at(-1)?.params.query, { timeout: 15_000 }).toBe('tar');
    await picker.locator('[role="option"]', { hasText: 'target' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="editor-tab"][data-path="${OTHER}"][data-active="true"]`).waitFor({ timeout: 15_000 });
    await expect.poll(() => caretPosition(page)).toEqual({ lineNumber: 3, column: 5 });
    expect(received(session, 'workspaceSymbol/resolve')).toHaveLength(1);
  });

  it('inlay hints (switched on for the language) are shown from textDocument/inlayHint and resolved with the original hint on hover', async () => {
    await page.locator(`[data-testid="editor-tab"][data-path="${MAIN}"] .tab-label`).click();
    const hints = () =>
      withEditor(page, (editor) =>
        (editor.getModel().getAllDecorations() as Array<{ options: { after?: { content?: string } } }>)
          .map((d) => d.options.after?.content)
          .filter((c): c is string => Boolean(c)),
      );
    // Monaco injects the label with non-breaking spaces.
    await expect.poll(async () => (await hints()).map((h) => h.replace(/\u00a0/g, ' ').trim()), { timeout: 15_000 }).toContain(': Unit');
    const hint = page.locator('.view-lines span', { hasText: /:\sUnit/ }).last();
    await hint.hover();
    await expect.poll(() => received(session, 'inlayHint/resolve').length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(received(session, 'inlayHint/resolve')[0]!.params).toMatchObject({ label: ': Unit', data: { id: 3 } });
  });

  it('document highlights and folding ranges come from the server where it offers them', async () => {
    await page.locator(`[data-testid="editor-tab"][data-path="${MAIN}"] .tab-label`).click();
    await setCaret(page, 3, 6);
    await expect
      .poll(
        () =>
          withEditor(page, (editor) =>
            (editor.getModel().getAllDecorations() as Array<{ range: { startLineNumber: number; startColumn: number }; options: { className?: string } }>)
              .filter((d) => /wordHighlight/.test(d.options.className ?? ''))
              .map((d) => `${d.range.startLineNumber}:${d.range.startColumn}:${d.options.className}`),
          ).then((list) => [...new Set(list)]),
        { timeout: 15_000 },
      )
      // Monaco may draw one highlight twice (text and overview ruler): the distinct ones are what the server sent.
      .toEqual(['3:5:wordHighlightStrong']);
    expect(received(session, 'textDocument/documentHighlight').at(-1)!.params.position).toEqual({ line: 2, character: 5 });
    await expect.poll(() => received(session, 'textDocument/foldingRange').length, { timeout: 15_000 }).toBeGreaterThan(0);
    await runEditorAction(page, 'editor.foldAll');
    // Line 2 is hidden under line 1: the server's range, not Monaco's indentation folding.
    await expect
      .poll(() =>
        withEditor(page, (editor) =>
          (editor.getVisibleRanges() as Array<{ startLineNumber: number; endLineNumber: number }>).map((r) => [r.startLineNumber, r.endLineNumber]),
        ),
      )
      .toEqual([
        [1, 1],
        [3, 5],
      ]);
    await runEditorAction(page, 'editor.unfoldAll');
  });

  it('workspace/applyEdit while no browser is attached is answered applied:false with a reason by the broker, and nothing is written', async () => {
    const before = readFileSync(join(session.workspace, MAIN), 'utf8');
    await page.close();
    await expect
      .poll(
        () =>
          session
            .log()
            .map((l) => l.message as { result?: { applied?: boolean; failureReason?: string } })
            .filter((m) => m.result?.applied === false)
            .map((m) => m.result!.failureReason),
        { timeout: 30_000 },
      )
      .toContain('no editor is attached to apply the edit');
    expect(readFileSync(join(session.workspace, MAIN), 'utf8')).toBe(before);
  });
});
