import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { UserSettings } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateScheme, expectTheme, inLightAndDark, screenshot, seriousAxeViolations, settled } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { writeFiles } from '../support/files.js';
import {
  editorText,
  hoverRows,
  openFile,
  openSession,
  putSettings,
  recordSentMethods,
  runEditorAction,
  sentMethodsByLanguage,
  setCaret,
  startEditorStack,
  waitForLspState,
  withEditor,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * The reading features against the real servers that offer them, in Chromium, in one session on a
 * git workspace: colors and smart selection from the VS Code CSS server, linked editing and links
 * from the VS Code HTML server, #include links from clangd, code lenses from gopls (its command
 * run through workspace/executeCommand) and typescript-language-server (its reference peek), and
 * the diff against HEAD whose modified side is the file's own document for gopls.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const FILES: Record<string, string> = {
  'web/style.css': ['.banner {', '  color: #ff0000;', '  background: rgb(0, 0, 255);', '}', ''].join('\n'),
  'web/index.html': [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<body>',
    '  <div>',
    '    <span>hello</span>',
    '  </div>',
    '  <a href="https://example.com/docs?page=1">docs</a>',
    '  <a href="other.html">other</a>',
    '  <a href="javascript:alert(1)">script</a>',
    '</body>',
    '</html>',
    '',
  ].join('\n'),
  'web/other.html': ['<p>other</p>', ''].join('\n'),
  'native/main.c': ['#include "util.h"', '', 'int main(void) { return twice(2); }', ''].join('\n'),
  'native/util.h': ['static inline int twice(int n) { return n * 2; }', ''].join('\n'),
  'go.mod': ['module example.com/reading', '', 'go 1.19', ''].join('\n'),
  'gen.go': ['package main', '', '//go:generate touch generated.txt', ''].join('\n'),
  'main.go': ['package main', '', 'import "fmt"', '', 'func main() {', '\tfmt.Println(double(2))', '}', ''].join('\n'),
  'util.go': ['package main', '', '// double returns twice n.', 'func double(n int) int {', '\treturn n * 2', '}', ''].join('\n'),
  'src/shapes.ts': [
    'export interface Shape {',
    '  area(): number;',
    '}',
    'export class Square implements Shape {',
    '  area() {',
    '    return 4;',
    '  }',
    '}',
    'export class Circle implements Shape {',
    '  area() {',
    '    return 3;',
    '  }',
    '}',
    '',
  ].join('\n'),
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'es2022' } }),
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

/**
 * One stack, task and session for the whole file: the screens below take over the servers the
 * features left running (a window with no hint claims a detached lease) rather than installing
 * and starting the CSS server and gopls a second time.
 */
let stack: RunningStack;
let browser: LaunchedBrowser;
let sessionId: string;
let workspace: string;
let home: string;

beforeAll(async () => {
  if (!run) return;
  home = mkdtempSync(join(tmpdir(), 'kandev-e2e-reading-home-'));
  workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-e2e-reading-')), FILES);
  git(workspace, 'init', '-q', '-b', 'main');
  git(workspace, 'add', '-A');
  git(workspace, '-c', 'user.name=Kandev Test', '-c', 'user.email=test@kandev.invalid', 'commit', '-q', '-m', 'initial');
  stack = await startEditorStack();
  await putSettings(stack, {
    lsp_auto_start_languages: ['css', 'html', 'cpp', 'go', 'typescript'],
    lsp_auto_install_languages: ['css', 'html'],
  });
  // npm's download cache is shared to spare the registry; the CSS/HTML servers land in the task HOME.
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const created = await stack.createTask({ title: 'Reading features', workspace, env: { HOME: home, npm_config_cache: npmCache } });
  sessionId = (await stack.startSession(created.id)).id;
  browser = await launchChromium();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  for (const dir of [workspace, home]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A hidden tab's animation frames: asked for, run only once the tab is shown (SHOW_TAB_FRAMES). */
const HIDE_TAB_FRAMES = `(() => {
  const held = [];
  let hidden = true;
  const draw = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => (hidden ? (held.push(callback), -held.length) : draw(callback));
  window.__showTab = () => {
    hidden = false;
    held.splice(0).forEach((callback) => draw(callback));
  };
})()`;
const SHOW_TAB_FRAMES = 'window.__showTab()';

describe.runIf(run)('code lenses, links, colors, smart selection and linked editing from real servers', () => {
  let context: BrowserContext;
  let page: Page;
  let sent: string[];
  let sentBy: Map<string, string[]>;

  const tab = (path: string) => page.locator(`[data-testid="editor-tab"][data-path="${path}"]`);
  const activeTab = (path: string) => tab(path).and(page.locator('[data-active="true"]'));
  const editorOf = (path: string) => page.locator(`[data-testid="editor"][data-path="${path}"]`);

  /** The page coordinates of a 1-based position in the shown editor. */
  async function pointAt(lineNumber: number, column: number): Promise<{ x: number; y: number }> {
    return withEditor(
      page,
      (editor, _m, p: { lineNumber: number; column: number }) => {
        editor.revealPositionInCenter(p);
        // Relative to the editor's top left corner (its gutter included), not to the text area.
        const at = editor.getScrolledVisiblePosition(p);
        const box = editor.getDomNode().getBoundingClientRect();
        return { x: box.left + at.left + 2, y: box.top + at.top + at.height / 2 };
      },
      { lineNumber, column },
    );
  }

  /** Ctrl+click at a position, as a person follows a link in Monaco. */
  async function followLinkAt(lineNumber: number, column: number): Promise<void> {
    const { x, y } = await pointAt(lineNumber, column);
    await page.mouse.move(x, y);
    await page.keyboard.down('Control');
    await page.mouse.move(x + 1, y);
    await page.mouse.click(x + 1, y);
    await page.keyboard.up('Control');
  }

  /** The server's links in the shown editor, as Monaco's link detector holds them (line:column of each start). */
  function detectedLinks(): Promise<string[]> {
    return withEditor(page, (editor) =>
      editor
        .getModel()
        .getAllDecorations()
        .filter((d: any) => d.options.description === 'detected-link')
        .map((d: any) => `${d.range.startLineNumber}:${d.range.startColumn}`),
    );
  }

  beforeAll(async () => {
    context = await newContext(browser.browser);
    // The external page is served here, never fetched: only that a new tab asked for it matters.
    await context.route('https://example.com/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>docs</title>' }));
    page = await context.newPage();
    sent = recordSentMethods(page);
    sentBy = sentMethodsByLanguage(page);
    await openSession(page, stack.url, sessionId);
  });

  // Closed, the window detaches its leases: the screens below take them over.
  afterAll(async () => {
    await context?.close();
  });

  it('VS Code CSS server: one swatch per color (Monaco adds none of its own), the picker rewrites the color in a format the server presents', async () => {
    await openFile(page, 'web/style.css');
    await waitForLspState(page, 'css', 'ready', 180_000);
    const swatches = editorOf('web/style.css').locator('.colorpicker-color-decoration');
    // Monaco's own hex/rgb decorator may paint before the server is asked; once it is, one swatch per color remains.
    await expect.poll(() => sent.includes('textDocument/documentColor'), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => swatches.count()).toBe(2);

    await swatches.first().click();
    const picked = page.locator('.colorpicker-widget .picked-color');
    await picked.waitFor();
    // The header reads the server's presentation in the text's own format (as in VS Code); each click takes the next and writes it into the text.
    expect(await picked.innerText()).toBe('#ff0000');
    expect(sent).toContain('textDocument/colorPresentation');
    const line2 = async () => (await editorText(page)).split('\n')[1];
    // Each click writes the server's next format into the text (the edit lands after Monaco's round trip):
    // hsl, then hwb, a format only the server offers (Monaco's own presentations are rgb, hex and hsl).
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      const before = await line2();
      await picked.click();
      await expect.poll(line2).not.toBe(before);
      seen.push((await line2())!);
    }
    expect(seen).toEqual(['  color: hsl(0, 100%, 50%);', '  color: hwb(0 0% 0%);']);
    await page.keyboard.press('Escape');
    await withEditor(page, (editor) =>
      editor.getModel().setValue(
        editor
          .getModel()
          .getValue()
          .replace(/color: [^;]+;/, 'color: #ff0000;'),
      ),
    );
  });

  it('VS Code CSS server: Expand Selection grows from the word to the declaration the server knows, then to the rule body; Shrink goes back', async () => {
    await openFile(page, 'web/style.css');
    await waitForLspState(page, 'css', 'ready', 180_000);
    await setCaret(page, 2, 4);
    const selected = () => withEditor(page, (editor) => editor.getModel().getValueInRange(editor.getSelection()) as string);
    await runEditorAction(page, 'editor.action.smartSelect.expand');
    await expect.poll(selected).toBe('color');
    await runEditorAction(page, 'editor.action.smartSelect.expand');
    // Monaco alone knows words and brackets: the declaration is the server's.
    await expect.poll(selected).toBe('color: #ff0000');
    expect(sent).toContain('textDocument/selectionRange');
    await runEditorAction(page, 'editor.action.smartSelect.shrink');
    await expect.poll(selected).toBe('color');
  });

  it('VS Code HTML server: renaming an opening tag renames its closing tag (linked editing)', async () => {
    await openFile(page, 'web/index.html');
    await waitForLspState(page, 'html', 'ready', 180_000);
    await setCaret(page, 5, 10);
    // The pair is shown as linked once the server answered for the caret: typing then edits both.
    await editorOf('web/index.html').locator('.linked-editing-decoration').nth(1).waitFor({ timeout: 60_000 });
    expect(sent).toContain('textDocument/linkedEditingRange');
    await page.keyboard.type('x');
    await expect.poll(async () => (await editorText(page)).split('\n')[4]).toBe('    <spanx>hello</spanx>');
    await page.keyboard.press('Control+Z');
  });

  it('VS Code HTML server: an http(s) link opens in a new tab only when clicked; a workspace link opens its tab; javascript: is no link', async () => {
    await activeTab('web/index.html').waitFor();
    await expect.poll(detectedLinks, { timeout: 60_000 }).toEqual(expect.arrayContaining(['7:12', '8:12']));
    // No link of the page's own making starts at the javascript: href (Monaco finds no URL there either).
    expect((await detectedLinks()).filter((l) => l.startsWith('9:'))).toEqual([]);
    expect(context.pages()).toHaveLength(1);

    const popup = context.waitForEvent('page');
    await followLinkAt(7, 20);
    const opened = await popup;
    await opened.waitForURL('https://example.com/docs?page=1');
    // Opened without a way back to this page.
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    await opened.close();

    const url = page.url();
    let dialogs = 0;
    page.on('dialog', (d) => void (dialogs++, d.dismiss()));
    await followLinkAt(9, 14);
    expect(context.pages()).toHaveLength(1);
    expect(page.url()).toBe(url);
    expect(dialogs).toBe(0);

    await followLinkAt(8, 14);
    await activeTab('web/other.html').waitFor();
  });

  it('clangd: an #include is a link that opens the included file as a tab', async () => {
    await openFile(page, 'native/main.c');
    await waitForLspState(page, 'cpp', 'ready');
    await expect.poll(detectedLinks, { timeout: 60_000 }).toEqual(['1:10']);
    expect(sent).toContain('textDocument/documentLink');
    await followLinkAt(1, 13);
    await activeTab('native/util.h').waitFor();
  });

  it('gopls: the go:generate lens shows above its line and runs `gopls.generate` through workspace/executeCommand on the task host', async () => {
    await openFile(page, 'gen.go');
    await waitForLspState(page, 'go', 'ready');
    const lenses = editorOf('gen.go').locator('.codelens-decoration a');
    await expect.poll(async () => (await lenses.allInnerTexts()).sort(), { timeout: 60_000 }).toEqual(['run go generate', 'run go generate ./...']);
    // Shown above the directive: the lens zone sits before line 3's text.
    const lensTop = (await editorOf('gen.go').locator('.codelens-decoration').first().boundingBox())!.y;
    const { y: lineY } = await pointAt(3, 1);
    expect(lensTop).toBeLessThan(lineY);
    expect(existsSync(join(workspace, 'generated.txt'))).toBe(false);
    await lenses.getByText('run go generate', { exact: true }).click();
    await expect.poll(() => existsSync(join(workspace, 'generated.txt')), { timeout: 60_000 }).toBe(true);
    expect(sent).toContain('workspace/executeCommand');
  });

  it('typescript-language-server: no lenses by default; with the switch on, implementation counts resolve lazily and peek the implementations', async () => {
    await openFile(page, 'src/shapes.ts');
    await waitForLspState(page, 'typescript', 'ready');
    // Off by default (as in VS Code): no provider, so nothing is asked, while the server answers what the editor asks on its own.
    // Asked of typescript-language-server only: gopls's lenses above are on by default and asked of gopls.
    const tsSent = () => sentBy.get('typescript') ?? [];
    await expect.poll(() => tsSent().includes('textDocument/documentSymbol'), { timeout: 60_000 }).toBe(true);
    expect(tsSent()).not.toContain('textDocument/codeLens');
    expect(await editorOf('src/shapes.ts').locator('.codelens-decoration').count()).toBe(0);
    // The Editors page: Go's lenses on, TypeScript's off until the person turns them on there.
    // The editor's tab goes to the background as the Settings tab opens. A browser draws a hidden tab
    // not at all (no animation frames) while its timers run on; Chromium here keeps every page
    // visible, so the tab's frames are held back as a hidden tab's are, until it is in front again.
    await page.evaluate(HIDE_TAB_FRAMES);
    const settingsPage = await context.newPage();
    await settingsPage.goto(`${stack.url}/?locale=en#/settings`);
    const lensSwitch = (language: string) =>
      settingsPage.locator(`[data-testid="language-card"][data-language="${language}"] [data-testid="code_lens-toggle"]`);
    expect(await lensSwitch('go').isChecked()).toBe(true);
    expect(await lensSwitch('typescript').isChecked()).toBe(false);
    await lensSwitch('typescript').check();
    await expect.poll(async () => (await stack.api<UserSettings>('/api/settings')).lsp_editor_features?.typescript).toEqual({ code_lens: true });
    // The person stays on the Settings tab a while. Monaco resolves only lenses it has drawn, once:
    // lenses handed over to a hidden tab stayed empty gaps for good. They come when the tab is in
    // front again, and resolve there.
    await settingsPage.waitForTimeout(4_000);
    await page.bringToFront();
    await page.evaluate(SHOW_TAB_FRAMES);
    const lenses = editorOf('src/shapes.ts').locator('.codelens-decoration a');
    await expect.poll(() => lenses.allInnerTexts(), { timeout: 60_000 }).toContain('2 implementations');
    // Closed only now: the editor hears of the save from the Settings page once its answer is back,
    // and a page closed before that tells no one (the backend stores the switch first).
    await settingsPage.close();
    expect(tsSent()).toContain('codeLens/resolve');
    await lenses.filter({ hasText: '2 implementations' }).click();
    const peek = page.locator('.peekview-widget .ref-tree .monaco-list-row');
    await expect.poll(() => peek.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
  });

  it('gopls in the diff against HEAD: the modified side gets hover, diagnostics and go to definition; the original side stays plain', async () => {
    writeFileSync(join(workspace, 'main.go'), FILES['main.go']!.replace('fmt.Println(double(2))', 'var s string = double(2)\n\tfmt.Println(s)'));
    const change = page.locator('[data-testid="change-row"][data-path="main.go"]');
    await change.waitFor({ timeout: 60_000 });
    await change.click();
    const modified = page.locator('[data-testid="head-diff-editor"] .editor.modified');
    const original = page.locator('[data-testid="head-diff-editor"] .editor.original');
    await modified.locator('.view-lines').waitFor();
    await modified.locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
    expect(await original.locator('[class*="squiggly-"]').count()).toBe(0);

    const inDiff = (side: 'original' | 'modified', fn: string, arg?: unknown) =>
      page.evaluate(
        ({ side, fn, arg }) => {
          // The diff editor's own sides (Monaco lists them with its diff editors, not among the editors).
          const diff = (window as any).__kandev.monaco.editor
            .getDiffEditors()
            .find((d: any) => d.getContainerDomNode()?.closest('[data-testid="head-diff-editor"]'));
          const editor = side === 'modified' ? diff.getModifiedEditor() : diff.getOriginalEditor();
          return (0, eval)(`(${fn})`)(editor, arg);
        },
        { side, fn, arg },
      );
    const hoverOn = async (side: 'original' | 'modified', lineNumber: number, column: number) => {
      await inDiff(side, '(e, p) => { e.setPosition(p); e.focus(); e.getAction("editor.action.showHover").run(); }', { lineNumber, column });
    };
    await hoverOn('modified', 6, 18);
    await expect.poll(() => hoverRows(page), { timeout: 60_000 }).toEqual([expect.stringMatching(/func double\(n int\) int/)]);
    await page.keyboard.press('Escape');

    // The original side: the same call asks no server (and Monaco's worker is not asked either: Go has none).
    // A hover on the modified side after it is the one request that goes out, so the original's would have come first.
    const before = sent.filter((m) => m === 'textDocument/hover').length;
    await hoverOn('original', 6, 15);
    await hoverOn('modified', 6, 18);
    await expect.poll(() => hoverRows(page), { timeout: 60_000 }).toEqual([expect.stringMatching(/func double\(n int\) int/)]);
    expect(sent.filter((m) => m === 'textDocument/hover').length).toBe(before + 1);
    await page.keyboard.press('Escape');

    await inDiff('modified', '(e, p) => { e.setPosition(p); e.focus(); }', { lineNumber: 6, column: 18 });
    await page.keyboard.press('F12');
    await activeTab('util.go').waitFor({ timeout: 60_000 });
  });
});

describe.runIf(run)('the reading features on screen: lenses and swatches, desktop and tablet, light and dark', () => {
  // Each state is built once per size and checked in light and then in dark on the same page
  // (inLightAndDark): the servers are taken over and the lenses and swatches drawn once, not per scheme.
  for (const viewport of ['desktop', 'tablet'] as Viewport[]) {
    it(`${viewport} light and dark: gopls lenses and CSS swatches have no serious accessibility violation`, async () => {
      const context = await newContext(browser.browser, viewport);
      const page = await context.newPage();
      await emulateScheme(page, 'light');
      await openSession(page, stack.url, sessionId);
      await expectTheme(page, 'light');
      const found: string[] = [];
      await openFile(page, 'gen.go');
      await waitForLspState(page, 'go', 'ready');
      await page.locator('[data-testid="editor"][data-path="gen.go"] .codelens-decoration a').first().waitFor({ timeout: 60_000 });
      await inLightAndDark(page, async (scheme) => {
        await screenshot(page, `reading-lens-${viewport}-${scheme}`);
        found.push(...(await seriousAxeViolations(page)).map((v) => `lens ${scheme}: ${v.id} ${v.nodes.join(' | ')}`));
      });
      await openFile(page, 'web/style.css');
      await waitForLspState(page, 'css', 'ready', 180_000);
      const swatches = page.locator('[data-testid="editor"][data-path="web/style.css"] .colorpicker-color-decoration');
      await swatches.nth(1).waitFor({ timeout: 60_000 });
      // The picker shown in each scheme: a theme switch closes it (it stays in the DOM, hidden), so it is opened afresh.
      const picked = page.locator('.colorpicker-widget .picked-color').filter({ visible: true });
      const showPicker = async () => {
        if (await picked.count()) return;
        await swatches.first().click();
        await picked.waitFor();
      };
      await inLightAndDark(page, async (scheme) => {
        await showPicker();
        await settled(page);
        await screenshot(page, `reading-colors-${viewport}-${scheme}`);
        found.push(...(await seriousAxeViolations(page)).map((v) => `colors ${scheme}: ${v.id} ${v.nodes.join(' | ')}`));
      });
      await context.close();
      expect(found).toEqual([]);
    }, 240_000);
  }
});
