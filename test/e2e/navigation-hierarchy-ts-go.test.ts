import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, openFile, recordSentMethods, setCaret, startEditorStack, waitForLspState, waitForServerWorkFinished } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';
import { hierarchyItem, hierarchyPanel, hierarchyRows, peekRows, pickFromContextMenu, runFromCommandPalette } from '../support/hierarchy.js';

/**
 * Go to / Peek Implementations and the call hierarchy panel against the real
 * typescript-language-server and gopls, on one workspace with an interface, two implementations
 * in different files, and a function whose caller lives in another file.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler' }, include: ['src'] }),
  'src/shapes.ts': [
    'export interface Shape {',
    '  area(): number;',
    '}',
    '',
    'export class Square implements Shape {',
    '  area(): number {',
    '    return 4;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/circle.ts': [
    "import type { Shape } from './shapes';",
    '',
    'export class Circle implements Shape {',
    '  area(): number {',
    '    return 3;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import type { Shape } from './shapes';",
    '',
    'export function total(shapes: Shape[]): number {',
    '  let sum = 0;',
    '  for (const s of shapes) sum += s.area();',
    '  return sum;',
    '}',
    '',
  ].join('\n'),
  'src/report.ts': ["import { total } from './main';", '', 'export function report(): string {', '  return `total: ${total([])}`;', '}', ''].join('\n'),
  'go.mod': ['module example.com/shapes', '', 'go 1.19', ''].join('\n'),
  'shapes.go': [
    'package main',
    '',
    'type Shape interface {',
    '\tArea() int',
    '}',
    '',
    'type Square struct{}',
    '',
    'func (Square) Area() int { return 4 }',
    '',
  ].join('\n'),
  'circle.go': ['package main', '', 'type Circle struct{}', '', 'func (Circle) Area() int { return 3 }', ''].join('\n'),
  'total.go': [
    'package main',
    '',
    'func total(shapes []Shape) int {',
    '\tsum := 0',
    '\tfor _, s := range shapes {',
    '\t\tsum += s.Area()',
    '\t}',
    '\treturn sum',
    '}',
    '',
  ].join('\n'),
  'app.go': ['package main', '', 'func main() {', '\tprintln(total([]Shape{Square{}, Circle{}}))', '}', ''].join('\n'),
};

describe.runIf(run)('navigation and call hierarchy with the real typescript-language-server and gopls', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sent: string[];

  const activeTab = () => page.locator('[data-testid="editor-tab"][data-active="true"]').getAttribute('data-path');

  beforeAll(async () => {
    stack = await startEditorStack();
    const workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-nav-tsgo-')), FILES);
    ({ browser, page } = await openTaskEditor(stack, { title: 'Navigation TypeScript and Go', workspace }));
    sent = recordSentMethods(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('typescript-language-server: Ctrl+F12 on an interface method lists both implementations in the peek view; choosing one opens its file', async () => {
    // Only main.ts is open: the implementations come from the project, once tsserver has loaded it
    // (before, typescript-language-server answers from its syntax server, which knows open files only).
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await waitForServerWorkFinished(page, 'typescript');
    await setCaret(page, 5, 38); // s.ar|ea()
    await page.keyboard.press('Control+F12');
    const peek = page.locator('.peekview-widget');
    const message = page.locator('.monaco-editor-overlaymessage');
    await peek.or(message).first().waitFor({ timeout: 60_000 });
    expect(await message.count(), await message.allInnerTexts().then((t) => t.join(' '))).toBe(0);
    // Two files, one result in each (tsserver answers the classes' methods, not the interface's).
    await expect.poll(async () => (await peekRows(page)).join('|'), { timeout: 30_000 }).toMatch(/circle\.ts.*\|.*shapes\.ts/s);
    expect(sent).toContain('textDocument/implementation');
    // Monaco's peek expands the file of the result it shows (circle.ts, the first); the other file's
    // result is one click on its row's twistie away, as for any Monaco user.
    const files = page.locator('.peekview-widget .ref-tree .monaco-list-row[aria-level="1"]');
    expect(await files.count()).toBe(2);
    await files.filter({ hasText: 'shapes.ts' }).locator('.monaco-tl-twistie').click();
    const rows = page.locator('.peekview-widget .ref-tree .monaco-list-row[aria-level="2"]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await rows.first().dblclick();
    await expect.poll(activeTab, { timeout: 15_000 }).toBe('src/circle.ts');
    expect(await caretPosition(page)).toEqual({ lineNumber: 4, column: 3 });
  });

  it('typescript-language-server: Shift+Alt+H shows the incoming calls of a function, lazily, and a caller opens at its call site in its file', async () => {
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await waitForServerWorkFinished(page, 'typescript');
    await setCaret(page, 3, 19); // function tot|al
    const before = sent.length;
    await page.keyboard.press('Shift+Alt+H');
    const panel = hierarchyPanel(page);
    await panel.waitFor({ timeout: 15_000 });
    expect(await panel.getAttribute('data-direction')).toBe('incoming');
    await expect.poll(() => hierarchyRows(page), { timeout: 60_000 }).toEqual(['0:total', '1:report']);
    // One prepare and the root's level; nothing deeper until asked.
    const asked = () => sent.slice(before).filter((m) => m.startsWith('textDocument/prepareCallHierarchy') || m.startsWith('callHierarchy/'));
    expect(asked()).toEqual(['textDocument/prepareCallHierarchy', 'callHierarchy/incomingCalls']);
    expect(await hierarchyItem(page, 'report').getAttribute('aria-expanded')).toBe('false');
    await hierarchyItem(page, 'report').locator('[data-testid="hierarchy-toggle"]').click();
    await expect.poll(() => hierarchyRows(page), { timeout: 30_000 }).toEqual(['0:total', '1:report', '2:(none)']);
    expect(asked()).toEqual(['textDocument/prepareCallHierarchy', 'callHierarchy/incomingCalls', 'callHierarchy/incomingCalls']);
    await hierarchyItem(page, 'report').locator('[data-testid="hierarchy-open"]').click();
    await expect.poll(activeTab, { timeout: 15_000 }).toBe('src/report.ts');
    // The call site: `total(` inside the template on line 4 of report.ts.
    expect(await caretPosition(page)).toEqual({ lineNumber: 4, column: 20 });
  });

  it('typescript-language-server: Outgoing calls list what the function calls', async () => {
    await hierarchyPanel(page).locator('[data-testid="hierarchy-direction"][data-direction="outgoing"]').click();
    await expect.poll(() => hierarchyRows(page), { timeout: 60_000 }).toEqual(['0:total', '1:area']);
    expect(sent).toContain('callHierarchy/outgoingCalls');
    await hierarchyPanel(page).locator('[data-testid="hierarchy-close"]').click();
    expect(await hierarchyPanel(page).count()).toBe(0);
  });

  it('gopls: Go to Implementations from the context menu on a type opens the interface it implements in its file', async () => {
    await openFile(page, 'circle.go');
    await waitForLspState(page, 'go', 'ready');
    await setCaret(page, 3, 8); // type Ci|rcle
    await pickFromContextMenu(page, 'Go to Implementations');
    await expect.poll(activeTab, { timeout: 60_000 }).toBe('shapes.go');
    expect(await caretPosition(page)).toEqual({ lineNumber: 3, column: 6 });
  });

  it('gopls: Ctrl+F12 on an interface method call peeks both methods that implement it', async () => {
    await openFile(page, 'total.go');
    await setCaret(page, 6, 12); // s.Ar|ea()
    await page.keyboard.press('Control+F12');
    await page.locator('.peekview-widget').waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await peekRows(page)).join('|'), { timeout: 30_000 }).toMatch(/circle\.go.*\|.*shapes\.go/s);
    await page.keyboard.press('Escape');
  });

  it('gopls: Show Call Hierarchy from the command palette (F1) lists the caller in another file and jumps to the call', async () => {
    await openFile(page, 'total.go');
    await setCaret(page, 3, 8); // func to|tal
    await runFromCommandPalette(page, 'Call Hierarchy', 'Show Call Hierarchy');
    await expect.poll(() => hierarchyRows(page), { timeout: 60_000 }).toEqual(['0:total', '1:main']);
    await hierarchyItem(page, 'main').locator('[data-testid="hierarchy-open"]').click();
    await expect.poll(activeTab, { timeout: 15_000 }).toBe('app.go');
    expect(await caretPosition(page)).toEqual({ lineNumber: 4, column: 10 });
  });
});
