import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, editorText, openFile, received, setCaret, waitForLspState, type FakeSession } from '../support/page.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';

/**
 * WorkspaceEdit details real servers do not produce on demand, against the scriptable fake server
 * installed as `kotlin-lsp`: change annotations that need confirmation (a dialog; cancel applies
 * nothing), file operations (workspace/will*Files before and did*Files after the create, rename
 * and delete of an edit, only for what the server registered, statically or dynamically, and after
 * a reload replayed the dynamic registration), and the full workspaceSymbol/resolve round trip.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const OTHER = 'src/Other.kt';
const OLD = 'src/Old.kt';
const MOVED = 'src/Moved.kt';
const FRESH = 'src/Fresh.kt';
const NOTES = 'notes/obsolete.md';
const files = {
  [MAIN]: ['fun main() {', '    helper()', '}', ''].join('\n'),
  [OTHER]: ['fun helper() {}', ''].join('\n'),
  [OLD]: ['fun old() {}', ''].join('\n'),
  [NOTES]: 'obsolete\n',
};
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const kotlinFiles = [{ scheme: 'file', pattern: { glob: '**/*.kt' } }];

function script(fileUri: (path: string) => string): FakeScript {
  const annotatedRename = {
    documentChanges: [
      { textDocument: { uri: fileUri(MAIN), version: null }, edits: [{ range: range(1, 4, 10), newText: 'assist', annotationId: 'rename' }] },
      { textDocument: { uri: fileUri(OTHER), version: null }, edits: [{ range: range(0, 4, 10), newText: 'assist', annotationId: 'rename' }] },
    ],
    changeAnnotations: { rename: { label: 'Rename helper to assist', description: 'Other.kt is not open and is written on disk', needsConfirmation: true } },
  };
  const reorganize = {
    documentChanges: [
      { kind: 'create', uri: fileUri(FRESH) },
      { textDocument: { uri: fileUri(FRESH), version: null }, edits: [{ range: range(0, 0, 0), newText: 'fun fresh() {}\n' }] },
      { kind: 'rename', oldUri: fileUri(OLD), newUri: fileUri(MOVED) },
      { kind: 'delete', uri: fileUri(NOTES) },
    ],
  };
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: 2 },
      renameProvider: true,
      codeActionProvider: true,
      workspaceSymbolProvider: { resolveProvider: true },
      // Renames and creates of Kotlin files statically; deletes are registered dynamically below.
      workspace: { fileOperations: { willRename: { filters: kotlinFiles }, didRename: { filters: kotlinFiles }, didCreate: { filters: kotlinFiles } } },
    },
    rules: {
      initialized: [
        {
          request: 'client/registerCapability',
          params: { registrations: [{ id: 'deletes', method: 'workspace/didDeleteFiles', registerOptions: { filters: [{ pattern: { glob: '**/*.md' } }] } }] },
        },
      ],
      'textDocument/rename': [{ respond: annotatedRename }],
      'textDocument/codeAction': [{ respond: [{ title: 'Reorganize files', kind: 'quickfix', edit: reorganize }] }],
      // The rename participant: Main.kt's reference to the moved file is updated in the same edit.
      'workspace/willRenameFiles': [{ respond: { changes: { [fileUri(MAIN)]: [{ range: range(0, 0, 0), newText: '// uses Moved.kt\n' }] } } }],
      'workspace/symbol': [
        { respond: [{ name: 'fresh', kind: 12, containerName: 'unresolved', location: { uri: fileUri(OTHER) }, data: { token: 'abc', rank: 2 } }] },
      ],
      // The full result replaces the partial one: another file, a range and a container.
      'workspaceSymbol/resolve': [
        {
          respond: {
            name: 'fresh',
            kind: 12,
            containerName: 'Fresh.kt',
            location: { uri: fileUri(FRESH), range: range(0, 4, 9) },
            data: { token: 'abc', rank: 2 },
          },
        },
      ],
    },
  };
}

describe.runIf(run)('workspace edit annotations and file operations against the scripted fake server (kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  const dialog = () => page.locator('[data-testid="edit-confirmation"]');
  const onDisk = (path: string) => readFileSync(join(session.workspace, path), 'utf8');
  const rename = async () => {
    await setCaret(page, 2, 6);
    await page.keyboard.press('F2');
    const input = page.locator('.rename-box input');
    await input.waitFor({ timeout: 15_000 });
    await input.fill('assist');
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    ({ stack, session, browser, page } = await openFakeEditor({ session: { binary: 'kotlin-lsp', script, files }, file: MAIN }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('an edit whose annotation needs confirmation lists its label, description and changes; Cancel applies nothing', async () => {
    await rename();
    await dialog().waitFor({ timeout: 15_000 });
    const text = await dialog().innerText();
    expect(text).toContain('Rename helper to assist');
    expect(text).toContain('Other.kt is not open and is written on disk');
    expect(await dialog().locator('.edit-confirmation-changes li').allInnerTexts()).toEqual([`Edit ${MAIN}`, `Edit ${OTHER}`]);
    await dialog().getByTestId('edit-confirmation-cancel').click();
    await dialog().waitFor({ state: 'detached' });
    expect(await editorText(page)).toBe(files[MAIN]);
    expect(onDisk(OTHER)).toBe(files[OTHER]);
  });

  it('Apply changes applies the whole annotated edit: the open model and the unopened file', async () => {
    await rename();
    await dialog().waitFor({ timeout: 15_000 });
    await dialog().getByTestId('edit-confirmation-apply').click();
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain('    assist()');
    await expect.poll(() => onDisk(OTHER)).toBe('fun assist() {}\n');
  });

  it("file operations after a reload: will/did notifications only for what the server registered (static and replayed dynamic), the rename participant's edit applied with the batch", async () => {
    await page.reload();
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
    expect(received(session, 'initialize')).toHaveLength(1);
    await setCaret(page, 1, 2);
    await page.keyboard.press('Control+.');
    await page.locator('.action-widget .monaco-list-row.action', { hasText: 'Reorganize files' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    const fileOperationMethods = () =>
      session
        .log()
        .map((l) => (l.message as { method?: string }).method)
        .filter((m): m is string => Boolean(m?.match(/^workspace\/(will|did)\w+Files$/)));
    // The did* notifications go out once the whole batch is applied (fileOperations.ts: didApply), and
    // the batch's operations reach the disk one after another: the rename is on disk before the
    // delete. So the last notification in the server's log is the moment the disk must be as the
    // edit says, and the exact sequence is required then.
    await expect.poll(() => fileOperationMethods().includes('workspace/didDeleteFiles'), { timeout: 15_000 }).toBe(true);
    expect(onDisk(MOVED)).toBe(files[OLD]);
    expect(existsSync(join(session.workspace, OLD))).toBe(false);
    expect(onDisk(FRESH)).toBe('fun fresh() {}\n');
    expect(existsSync(join(session.workspace, NOTES))).toBe(false);
    // The participant's edit reached the open model (unsaved, like every edit of an open file).
    await expect.poll(() => editorText(page)).toMatch(/^\/\/ uses Moved\.kt\n/);
    const methods = fileOperationMethods();
    expect(methods).toEqual(['workspace/willRenameFiles', 'workspace/didCreateFiles', 'workspace/didRenameFiles', 'workspace/didDeleteFiles']);
    expect(received(session, 'workspace/willRenameFiles')[0]!.params).toEqual({ files: [{ oldUri: session.fileUri(OLD), newUri: session.fileUri(MOVED) }] });
    expect(received(session, 'workspace/didCreateFiles')[0]!.params).toEqual({ files: [{ uri: session.fileUri(FRESH) }] });
    expect(received(session, 'workspace/didDeleteFiles')[0]!.params).toEqual({ files: [{ uri: session.fileUri(NOTES) }] });
  });

  it('workspaceSymbol/resolve gets the whole symbol the server answered and the full result it returns is where the picker goes', async () => {
    await page.keyboard.press('Control+T');
    const picker = page.locator('[data-testid="workspace-symbols"]');
    await picker.locator('input').fill('fre');
    await picker.locator('[role="option"]', { hasText: 'fresh' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="editor-tab"][data-path="${FRESH}"][data-active="true"]`).waitFor({ timeout: 15_000 });
    await expect.poll(() => caretPosition(page)).toEqual({ lineNumber: 1, column: 5 });
    expect(received(session, 'workspaceSymbol/resolve').map((m) => m.params)).toEqual([
      { name: 'fresh', kind: 12, containerName: 'unresolved', location: { uri: session.fileUri(OTHER) }, data: { token: 'abc', rank: 2 } },
    ]);
  });
});
