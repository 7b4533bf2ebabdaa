/**
 * The session workbench in Chromium against the real stack and the real typescript-language-server:
 * tabs survive a reload, quick open and the shortcuts work from the keyboard alone, the Files tree
 * is an ARIA tree driven by arrows, Home/End and type-ahead, and the Problems panel lists a type
 * error, reveals it on click, and empties once it is fixed (and for a closed file).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Session } from '@kandev/protocol';
import { reloadPage, screenshot } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, editorText, openFile, openSession, setCaret, startEditorStack, waitForLspState } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('session workbench', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;
  let root: string;
  let session: Session;

  const activeTab = () => page.locator('[data-testid="editor-tab"][data-active="true"]').getAttribute('data-path');
  const tabPaths = () => page.locator('[data-testid="editor-tab"]').evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-path')));
  const focusedTreePath = () =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('[role="treeitem"]')?.getAttribute('data-path') ?? null);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kandev-app-session-'));
    mkdirSync(join(root, 'src', 'money'), { recursive: true });
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler' } }),
    );
    writeFileSync(
      join(root, 'src', 'money', 'rounding.ts'),
      'export function roundCents(value: number): number {\n  return Math.round(value * 100) / 100;\n}\n',
    );
    writeFileSync(join(root, 'src', 'total.ts'), "import { roundCents } from './money/rounding';\n\nexport const total: number = roundCents(1.005);\n");
    writeFileSync(join(root, 'src', 'broken.ts'), "export const label: number = 'not a number';\n");
    writeFileSync(join(root, 'README.md'), '# billing\n');
    stack = await startEditorStack();
    const task = await stack.createTask({ title: 'Billing', workspace: root });
    session = await stack.startSession(task.id);
    browser = await launchChromium();
    context = await newContext(browser.browser, 'desktop');
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('open tabs and the active file survive a reload', async () => {
    await openSession(page, stack.url, session.id);
    await openFile(page, 'src/total.ts');
    await openFile(page, 'README.md');
    await page.locator('[data-testid="editor-tab"][data-path="src/total.ts"] .tab-label').click();
    await page.locator('[data-testid="editor-tab"][data-path="src/total.ts"][data-active="true"]').waitFor();

    await reloadPage(page);
    await page.locator('[data-testid="editor"][data-path="src/total.ts"]').waitFor();
    await expect.poll(tabPaths).toEqual(['README.md', 'src/total.ts']);
    expect(await activeTab()).toBe('src/total.ts');
    expect(await editorText(page)).toContain('roundCents(1.005)');
    // The tree shows where the active file is.
    await page.locator('[data-testid="tree-node"][data-path="src/total.ts"][data-active="true"]').waitFor();
  });

  it('Ctrl+P opens quick open over the whole workspace; typing and Enter open a file, all by keyboard', async () => {
    await page.keyboard.press('Control+P');
    const input = page.getByTestId('quick-open-input');
    await input.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('quick-open-input');
    await page.keyboard.type('rnd');
    // A file two folders down that was never expanded in the tree is found.
    await page.locator('[data-testid="quick-open-item"][data-path="src/money/rounding.ts"]').waitFor();
    expect(await page.locator('[data-testid="quick-open-item"]').first().getAttribute('data-path')).toBe('src/money/rounding.ts');
    await page.keyboard.press('Enter');
    await page.getByTestId('quick-open').waitFor({ state: 'detached' });
    await page.locator('[data-testid="editor"][data-path="src/money/rounding.ts"]').waitFor();
    expect(await activeTab()).toBe('src/money/rounding.ts');

    await page.keyboard.press('Control+P');
    await page.keyboard.type('zzzz-nothing');
    await page.getByTestId('quick-open-empty').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('quick-open').waitFor({ state: 'detached' });
  });

  it('Ctrl+Shift+F focuses the search; ? lists the shortcuts; Ctrl+S saves from the editor', async () => {
    await setCaret(page, 1, 1);
    await page.keyboard.press('Control+Shift+F');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-input');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="tree-node"][data-path="README.md"]').focus();
    await page.keyboard.press('Shift+?');
    const help = page.getByTestId('shortcuts-dialog');
    await help.waitFor();
    expect(await help.locator('[data-testid="shortcut"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-shortcut')))).toEqual([
      'quickOpen',
      'findInFiles',
      'save',
      'help',
      'tree',
      'treeRename',
      'treeDelete',
      'treeMenu',
    ]);
    expect(await help.innerText()).toContain('Ctrl');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    await setCaret(page, 3, 1);
    await page.keyboard.type('// checked\n');
    await page.locator('[data-testid="editor-tab"][data-path="src/money/rounding.ts"][data-dirty="true"]').waitFor();
    await page.keyboard.press('Control+S');
    await page.locator('[data-testid="editor-tab"][data-path="src/money/rounding.ts"][data-dirty="false"]').waitFor();
    expect(readFileSync(join(root, 'src/money/rounding.ts'), 'utf8')).toContain('// checked');
  });

  it('the Files tree is an ARIA tree: one tab stop, arrows, Right/Left, Home/End, type-ahead, Enter', async () => {
    const tree = page.getByTestId('file-tree');
    expect(await tree.getAttribute('role')).toBe('tree');
    expect(await tree.locator('[role="treeitem"][tabindex="0"]').count()).toBe(1);
    expect(await tree.locator('[role="group"]').count()).toBeGreaterThan(0);
    expect(await tree.locator('[data-testid="tree-node"][data-path="src/money/rounding.ts"]').getAttribute('aria-selected')).toBe('true');
    expect(await tree.locator('[data-testid="tree-node"][data-path="src/money/rounding.ts"]').getAttribute('aria-level')).toBe('3');

    await tree.locator('[data-testid="tree-node"][data-path="README.md"]').focus();
    await page.keyboard.press('Home');
    await expect.poll(focusedTreePath).toBe('src');
    await page.keyboard.press('ArrowLeft');
    await tree.locator('[data-testid="tree-node"][data-path="src"][aria-expanded="false"]').waitFor();
    await page.keyboard.press('ArrowRight');
    await tree.locator('[data-testid="tree-node"][data-path="src"][aria-expanded="true"]').waitFor();
    await page.keyboard.press('ArrowRight');
    await expect.poll(focusedTreePath).toBe('src/money');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedTreePath).toBe('src/money/rounding.ts');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focusedTreePath).toBe('src/money');
    await page.keyboard.press('End');
    await expect.poll(focusedTreePath).toBe('tsconfig.json');
    await page.keyboard.type('b');
    await expect.poll(focusedTreePath).toBe('src/broken.ts');
    // Focus follows a React render: wait for it (the machine may be busy), then read the roving stop.
    await tree.locator('[role="treeitem"][tabindex="0"][data-path="src/broken.ts"]').waitFor();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="editor"][data-path="src/broken.ts"]').waitFor();
  });

  it("the Problems panel lists the server's type error, reveals it, and empties when it is fixed or the file closes", async () => {
    await waitForLspState(page, 'typescript', 'ready');
    const group = page.locator('[data-testid="problems-group"][data-path="src/broken.ts"]');
    await group.waitFor({ timeout: 60_000 });
    const row = page.locator('[data-testid="problem-row"][data-path="src/broken.ts"][data-severity="error"]');
    expect(await row.innerText()).toMatch(/not assignable to type 'number'/);
    expect(await page.getByTestId('status-bar-problems').getAttribute('data-errors')).toBe('1');
    await screenshot(page, 'problems-desktop-light');

    await page.locator('[data-testid="editor-tab"][data-path="src/total.ts"] .tab-label').click();
    await row.click();
    await page.locator('[data-testid="editor"][data-path="src/broken.ts"]').waitFor();
    expect(await caretPosition(page)).toEqual({ lineNumber: 1, column: Number(await row.getAttribute('data-column')) });

    // Fix it as a person would: replace the string with a number.
    await page.evaluate(() => {
      const monaco = (window as any).__kandev.monaco;
      const editor = monaco.editor.getEditors().find((e: any) => e.getModel()?.uri.path === '/src/broken.ts');
      const model = editor.getModel();
      const match = model.findMatches("'not a number'", false, false, true, null, false)[0];
      editor.setSelection(match.range);
      editor.focus();
    });
    await page.keyboard.type('42');
    await page.getByTestId('problems-empty').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('status-bar-problems').getAttribute('data-errors')).toBe('0');
    expect(await page.getByTestId('problems-panel').getAttribute('data-total')).toBe('0');

    // Break it again, then close the tab without saving: no entry stays for the closed file.
    await page.keyboard.press('Control+Z');
    await group.waitFor({ timeout: 60_000 });
    page.once('dialog', (d) => void d.accept());
    await page.locator('[data-testid="editor-tab"][data-path="src/broken.ts"] .tab-close').click();
    await page.locator('[data-testid="editor-tab"][data-path="src/broken.ts"]').waitFor({ state: 'detached' });
    expect(await group.count()).toBe(0);
    expect(await page.getByTestId('status-bar-problems').getAttribute('data-errors')).toBe('0');
  });

  it('the Files pane resizes from its splitter by keyboard and pointer, within bounds, and keeps its width after a reload', async () => {
    const splitter = page.getByTestId('sidebar-splitter');
    const width = async () => Math.round((await page.locator('#session-sidebar').boundingBox())!.width);
    const before = await width();
    await splitter.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(width).toBe(before + 32);
    expect(await splitter.getAttribute('aria-valuenow')).toBe(String(before + 32));
    const box = (await splitter.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + 2000, box.y + 200, { steps: 4 });
    await page.mouse.up();
    await expect.poll(width).toBe(560);
    await page.keyboard.press('Home');
    await expect.poll(width).toBe(180);
    await reloadPage(page);
    await page.getByTestId('sidebar-splitter').waitFor();
    await expect.poll(width).toBe(180);
  });
});
