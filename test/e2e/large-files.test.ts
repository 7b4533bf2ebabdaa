import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LARGE_FILE_BYTES, LARGE_FILE_LINES, MAX_OPEN_FILE_BYTES, MAX_SAVE_BYTES } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from '../support/app.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { clickTreeFile, openFile, startEditorStack, waitForLspState, withEditor } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';

/**
 * Large files open: a JSON file above the large-file bound (the old files API refused anything over
 * 5 MiB) opens in large-file mode with its one-line notice, never reaches the language server, and
 * saves with the version check; a file over the editor's limit is refused with why and what to do.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** A JSON array of records, `bytes` long or a little more. */
function bigJson(bytes: number): string {
  const record = '  {"id": 123456, "name": "a record of the big file", "tags": ["x", "y", "z"]},\n';
  return `[\n${record.repeat(Math.ceil(bytes / record.length))}  {"id": 0}\n]\n`;
}

/** 50 MiB of numbered log lines, the last one `line <n> end`. */
function fiftyMiBLog(): Buffer {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 50 * 1024 * 1024; i++) {
    const line = `2026-12-04T18:00:00Z line ${i} of a log the agent wrote while it ran the test suite\n`;
    lines.push(line);
    bytes += line.length;
  }
  lines.push(`line ${lines.length} end\n`);
  return Buffer.from(lines.join(''));
}

/** The files API's one-file route (GET reads, PUT saves). */
const isFileRoute = (url: URL) => url.pathname.endsWith('/file');

describe.runIf(run)('large files open in large-file mode; too large ones say why (real typescript-language-server)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let workspace: string;
  const didOpens: string[] = [];
  const aboutMany: string[] = [];

  beforeAll(async () => {
    stack = await startEditorStack();
    workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-large-')), {
      'src/small.ts': 'export const small = 1;\n',
      'src/many.ts': Array.from({ length: LARGE_FILE_LINES + 1 }, (_, i) => `// ${i}`).join('\n') + '\n',
      'data/big.json': bigJson(LARGE_FILE_BYTES + 1024 * 1024),
    });
    writeFileSync(join(workspace, 'data/huge.log'), Buffer.alloc(MAX_OPEN_FILE_BYTES + 1, 'x'));
    writeFileSync(join(workspace, 'data/fifty.log'), fiftyMiBLog());
    ({ browser, page } = await openTaskEditor(stack, { title: 'Large files', workspace }));
    page.on('websocket', (ws) =>
      ws.on('framesent', (f) => {
        const text = String(f.payload);
        if (text.includes('"textDocument/didOpen"')) didOpens.push(/"uri":"([^"]+)"/.exec(text)?.[1] ?? '');
        else if (text.includes('/src/many.ts')) aboutMany.push(text.slice(0, 200));
      }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    // 127 MB of generated files: left in /tmp, every run added them again.
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it('a 9 MiB JSON file opens with one line saying what is off and why', async () => {
    await openFile(page, 'data/big.json');
    const notice = page.locator('[data-testid="large-file-notice"][data-path="data/big.json"]');
    await notice.waitFor();
    expect(await notice.getAttribute('data-reason')).toBe('size');
    expect(await notice.innerText()).toMatch(/^Large file \(9\.\d MiB\): syntax colouring, folding and language features are off/);
    expect(await withEditor(page, (editor, monaco) => [editor.getModel().getLanguageId(), editor.getOption(monaco.editor.EditorOption.folding)])).toEqual([
      'plaintext',
      false,
    ]);
    await screenshot(page, 'large-file-desktop-light');
  });

  it('a TypeScript file of more lines than the bound opens without the language server hearing of it', async () => {
    await openFile(page, 'src/small.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await openFile(page, 'src/many.ts');
    const notice = page.locator('[data-testid="large-file-notice"][data-path="src/many.ts"]');
    await notice.waitFor();
    expect(await notice.getAttribute('data-reason')).toBe('lines');
    // The small file reached the server; the big one never did, nor any request about it.
    await page.waitForTimeout(2_000);
    expect(didOpens.some((uri) => uri.endsWith('/src/small.ts'))).toBe(true);
    expect(didOpens.filter((uri) => uri.endsWith('/src/many.ts'))).toEqual([]);
    expect(aboutMany).toEqual([]);
    // Back to the big JSON file for the save below.
    await page.locator('[data-testid="editor-tab"][data-path="data/big.json"] .tab-label').click();
  });

  it('saving the large file writes it, and keeps the version check (a change on disk meanwhile is a conflict)', async () => {
    await withEditor(page, (editor, monaco) => {
      const model = editor.getModel();
      model.pushEditOperations([], [{ range: new monaco.Range(1, 1, 1, 1), text: '' }], () => null);
      model.applyEdits([{ range: new monaco.Range(1, 2, 1, 2), text: ' ' }]);
    });
    await page.getByTestId('save').click();
    await page.locator('[data-testid="editor-tab"][data-path="data/big.json"][data-dirty="false"]').waitFor({ timeout: 60_000 });
    expect(readFileSync(join(workspace, 'data/big.json'), 'utf8').startsWith('[ \n')).toBe(true);

    // The buffer holds unsaved text before the disk changes: a clean buffer may take the new disk
    // text by itself (the live workspace), which would race the write's conflict.
    await withEditor(page, (editor, monaco) => editor.getModel().applyEdits([{ range: new monaco.Range(1, 2, 1, 2), text: ' ' }]));
    writeFileSync(join(workspace, 'data/big.json'), bigJson(LARGE_FILE_BYTES + 2 * 1024 * 1024));
    await page.getByTestId('save').click();
    await page.locator('[data-testid="save-conflict"][data-path="data/big.json"]').waitFor({ timeout: 60_000 });
  });

  it('a save refused as too large says so, with the limit, and keeps the edits', async () => {
    // The task host's real refusal is covered by test/integration/large-save.test.ts; here only the
    // page's answer to it matters, so the PUT is answered with that refusal without a 64 MiB buffer.
    await page.route(isFileRoute, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 413,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'too_large', message: 'too large' }, limit: MAX_SAVE_BYTES }),
          })
        : route.fallback(),
    );
    await page.locator('[data-testid="editor-tab"][data-path="data/big.json"] .tab-label').click();
    await withEditor(page, (editor, monaco) => editor.getModel().applyEdits([{ range: new monaco.Range(1, 2, 1, 2), text: ' ' }]));
    await page.getByTestId('save').click();
    const refused = page.getByTestId('save-too-large');
    await refused.waitFor();
    expect(await refused.innerText()).toBe(
      'data/big.json was not saved: it is larger than 64 MiB, the most the editor saves. Your edits are still here; make the file smaller, or change it with a tool on the task host.',
    );
    expect(await page.locator('[data-testid="editor-tab"][data-path="data/big.json"]').getAttribute('data-dirty')).toBe('true');
    await screenshot(page, 'save-too-large-desktop-light');
    await page.unroute(isFileRoute);
  });

  it('a 50 MiB file opens in large-file mode, all of it: its last line is in the editor', async () => {
    await openFile(page, 'data/fifty.log');
    const notice = page.locator('[data-testid="large-file-notice"][data-path="data/fifty.log"]');
    await notice.waitFor({ timeout: 120_000 });
    expect(await notice.innerText()).toMatch(/^Large file \(50\.\d MiB\)/);
    const [lines, last] = await withEditor(page, (editor) => {
      const model = editor.getModel();
      return [model.getLineCount(), model.getLineContent(model.getLineCount() - 1)];
    });
    expect(last).toBe(`line ${lines - 2} end`);
  });

  it('a file over the limit is refused with why and what to do, not "could not open"', async () => {
    await clickTreeFile(page, 'data/huge.log');
    const refused = page.locator('[data-testid="file-too-large"][data-path="data/huge.log"]');
    await refused.waitFor();
    expect(await refused.innerText()).toBe(
      'data/huge.log is larger than 64 MiB, the most the editor opens. Open it with a tool on the task host, or work on a smaller part of it.',
    );
    await screenshot(page, 'file-too-large-desktop-light');
  });
});
