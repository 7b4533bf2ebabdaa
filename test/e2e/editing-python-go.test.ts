import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { editorText, openFile, outlineTree, runEditorAction, setCaret, startEditorStack, waitForLspState } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';

/**
 * editing features against pyright and gopls, where they offer them: document symbols
 * (Outline) and rename from both, server formatting from gopls (pyright has no formatter, so
 * Format Document is not offered by it and is not tested here).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const FILES: Record<string, string> = {
  'app/util.py': ['def helper(n):', '    return n * 2', '', '', 'class Box:', '    def size(self):', '        return helper(3)', ''].join('\n'),
  'app/main.py': ['from util import helper', '', 'print(helper(1))', ''].join('\n'),
  'go.mod': ['module example.com/editing', '', 'go 1.19', ''].join('\n'),
  'main.go': [
    'package main',
    '',
    'import "fmt"',
    '',
    'type Box struct{ size int }',
    '',
    'func (b Box) Double() int {',
    '\treturn helper(b.size)',
    '}',
    '',
    'func helper(n int) int {',
    '\treturn n * 2',
    '}',
    '',
    'func main() {',
    '\tfmt.Println(helper(2))',
    '}',
    '',
  ].join('\n'),
  'ugly.go': ['package main', '', 'func  ugly( a int)int{', 'return a+1}', ''].join('\n'),
};

function writeWorkspace(): string {
  return writeFiles(mkdtempSync(join(tmpdir(), 'kandev-editing-pygo-')), FILES);
}

describe.runIf(run)('editing with the real pyright and gopls', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let workspace: string;

  const outlineNames = () => page.locator('[data-testid="outline"] [data-symbol]').evaluateAll((els) => els.map((e) => e.getAttribute('data-symbol')));
  const renameAt = async (line: number, column: number, from: string, to: string) => {
    await setCaret(page, line, column);
    await page.keyboard.press('F2');
    const input = page.locator('.rename-box input');
    await input.waitFor({ timeout: 60_000 });
    expect(await input.inputValue()).toBe(from);
    await input.fill(to);
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    stack = await startEditorStack();
    workspace = writeWorkspace();
    ({ browser, page } = await openTaskEditor(stack, { title: 'Editing Python and Go', workspace }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('pyright: the Outline nests the document symbols; F2 renames in every open file, nothing saved', async () => {
    await openFile(page, 'app/main.py');
    await openFile(page, 'app/util.py');
    await waitForLspState(page, 'python', 'ready');
    await expect.poll(outlineNames, { timeout: 60_000 }).toEqual(['helper', 'n', 'Box', 'size']);
    // `size` is Box's member: the row right after it, one level down.
    const tree = await outlineTree(page);
    expect(tree.slice(tree.indexOf('1:Box'), tree.indexOf('1:Box') + 2)).toEqual(['1:Box', '2:size']);
    await renameAt(1, 6, 'helper', 'assist');
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toBe(FILES['app/util.py']!.replaceAll('helper', 'assist'));
    await page.locator('[data-testid="editor-tab"][data-path="app/main.py"] .tab-label').click();
    await expect.poll(() => editorText(page)).toBe(FILES['app/main.py']!.replaceAll('helper', 'assist'));
    expect(readFileSync(join(workspace, 'app/util.py'), 'utf8')).toBe(FILES['app/util.py']);
  });

  it('gopls: the Outline lists the document symbols; F2 renames a function and its uses', async () => {
    await openFile(page, 'main.go');
    await waitForLspState(page, 'go', 'ready');
    await expect.poll(outlineNames, { timeout: 60_000 }).toEqual(expect.arrayContaining(['Box', 'helper', 'main']));
    await renameAt(11, 7, 'helper', 'twice');
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toBe(FILES['main.go']!.replaceAll('helper', 'twice'));
  });

  it('gopls: Format Document uses the server formatter (gofmt)', async () => {
    await openFile(page, 'ugly.go');
    await waitForLspState(page, 'go', 'ready');
    await runEditorAction(page, 'editor.action.formatDocument');
    await expect.poll(() => editorText(page), { timeout: 30_000 }).toBe(['package main', '', 'func ugly(a int) int {', '\treturn a + 1', '}', ''].join('\n'));
  });
});
