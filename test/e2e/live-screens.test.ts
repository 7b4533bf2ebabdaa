/**
 * The live workspace as a person sees it at desktop, tablet and phone sizes, light and dark: git
 * marks in the Files tree, the Changes panel, the disk-change bar over unsaved changes, the diff
 * against HEAD and a binary file's diff reached from the keyboard (screenshots in
 * test-results/screens/live-*), with no serious or critical axe-core violation in the app, its
 * editor or its diff editors, and nothing overflowing a 390 px phone. Each state is built once per size and checked
 * in light and then in dark on the same page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateScheme, expectTheme, inLightAndDark, pageOverflowsHorizontally, screenshot, seriousAxeViolations } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { writeFiles } from '../support/files.js';
import { diffSideNames, openFile, openSession, sessionModelText, startEditorStack, switchLocale } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const VIEWPORTS: Viewport[] = ['desktop', 'tablet', 'phone'];

const FILES: Record<string, string> = {
  'README.md': '# Checkout\n',
  'src/cart.ts': 'export function total(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n',
  'src/discount.ts': 'export function discount(total: number): number {\n  return total * 0.9;\n}\n',
  'src/legacy.ts': 'export const legacy = true;\n',
  'assets/logo.png': '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR',
};

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

describe.runIf(run)('live workspace screens', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let workspace: string;
  let sessionId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-live-screens-')), FILES);
    git(workspace, 'init', '-q', '-b', 'main');
    git(workspace, 'add', '-A');
    git(workspace, '-c', 'user.name=Kandev Test', '-c', 'user.email=test@kandev.invalid', 'commit', '-q', '-m', 'initial');
    // What an agent changed: one file rewritten, one added, one deleted.
    writeFileSync(
      join(workspace, 'src/discount.ts'),
      'export function discount(total: number): number {\n  // round to cents\n  return Math.round(total * 90) / 100;\n}\n',
    );
    writeFileSync(join(workspace, 'src/rounding.ts'), 'export const cents = (n: number) => Math.round(n * 100) / 100;\n');
    rmSync(join(workspace, 'src/legacy.ts'));
    writeFileSync(join(workspace, 'assets/logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 2, 0xff]));
    stack = await startEditorStack();
    const task = await stack.createTask({ title: 'Checkout: round discounts to cents', workspace });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  async function pageFor(viewport: Viewport): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    return context.newPage();
  }

  /** A screenshot `name`-<scheme> and axe's serious and critical violations (as `label scheme: rule nodes`), in light and in dark. */
  async function checkScreen(page: Page, name: string, label: string, found: string[]): Promise<void> {
    await inLightAndDark(page, async (scheme) => {
      await screenshot(page, `${name}-${scheme}`);
      found.push(...(await seriousAxeViolations(page)).map((v) => `${label} ${scheme}: ${v.id} ${v.nodes.join(' | ')}`));
    });
  }

  for (const viewport of VIEWPORTS) {
    it(`${viewport} light and dark: tree marks, Changes panel${viewport === 'phone' ? '' : ', disk-change bar and diff against HEAD'}`, async () => {
      const page = await pageFor(viewport);
      await emulateScheme(page, 'light');
      await openSession(page, stack.url, sessionId);
      await expectTheme(page, 'light');
      const found: string[] = [];
      const changes = page.locator('[data-testid="change-row"]');
      await page.locator('[data-testid="change-row"][data-path="src/legacy.ts"]').waitFor();
      expect(await changes.count()).toBe(4);
      if (viewport === 'phone') {
        await page.locator('[data-testid="tree-node"][data-path="src"]').click();
        await page.locator('[data-testid="tree-node"][data-path="src/discount.ts"] [data-testid="git-mark"]').waitFor();
        // Each change opens its read-only diff in place of the lists (test/e2e/phone-viewer.test.ts).
        expect(await page.locator('button[data-testid="change-row"]').count()).toBe(4);
        await inLightAndDark(page, async (scheme) => {
          await screenshot(page, `live-changes-${viewport}-${scheme}`);
          expect(await pageOverflowsHorizontally(page)).toBe(false);
          found.push(...(await seriousAxeViolations(page)).map((v) => `${scheme}: ${v.id} ${v.nodes.join(' | ')}`));
        });
        expect(found).toEqual([]);
        return;
      }
      await openFile(page, 'src/cart.ts');
      await page.locator('[data-testid="editor"][data-path="src/cart.ts"] .view-lines').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// typed here\n');
      const text = await sessionModelText(page, sessionId, 'src/cart.ts');
      // Another writer rewrites the file under the unsaved change.
      writeFileSync(join(workspace, 'src/cart.ts'), FILES['src/cart.ts']!.replace('0);', '0) * 1;'));
      await page.locator('[data-testid="disk-changed"]').waitFor();
      await page.locator('[data-testid="tree-node"][data-path="src/discount.ts"] [data-testid="git-mark"]').waitFor();
      await checkScreen(page, `live-disk-bar-${viewport}`, 'bar:', found);
      await page.locator('[data-testid="disk-compare"]').click();
      await page.locator('[data-testid="disk-compare-editor"] .editor.modified .view-lines').waitFor();
      // Each side's text box is named for what it holds (Monaco's diff editor leaves them unnamed).
      expect(await diffSideNames(page, 'disk-compare-editor')).toEqual({ original: 'src/cart.ts on disk', modified: 'src/cart.ts, your version' });
      await checkScreen(page, `live-compare-${viewport}`, 'compare:', found);
      await page.locator('[data-testid="disk-take-theirs"]').click();
      await page.locator('[data-testid="disk-changed"]').waitFor({ state: 'detached' });
      // Put the file back as HEAD has it, for the next screen size (nothing typed is lost: Undo holds it).
      expect(text).toContain('// typed here');
      writeFileSync(join(workspace, 'src/cart.ts'), FILES['src/cart.ts']!);

      await page.locator('[data-testid="change-row"][data-path="src/discount.ts"]').click();
      await page.locator('[data-testid="head-diff-editor"] .editor.modified .view-lines').waitFor();
      expect(await diffSideNames(page, 'head-diff-editor')).toEqual({ original: 'src/discount.ts at HEAD', modified: 'src/discount.ts in the workspace' });
      await checkScreen(page, `live-head-diff-${viewport}`, 'diff:', found);
      // A new language renames both sides of the diff shown, by the time its title reads in it.
      const title = page.locator('[data-testid="head-diff"] .diff-view-title');
      await switchLocale(page, 'pt-pt');
      await title.filter({ hasText: 'src/discount.ts em relação a HEAD' }).waitFor();
      expect(await diffSideNames(page, 'head-diff-editor')).toEqual({ original: 'src/discount.ts em HEAD', modified: 'src/discount.ts no espaço de trabalho' });
      await switchLocale(page, 'en');
      await title.filter({ hasText: 'src/discount.ts against HEAD' }).waitFor();
      expect(await diffSideNames(page, 'head-diff-editor')).toEqual({ original: 'src/discount.ts at HEAD', modified: 'src/discount.ts in the workspace' });
      // From the keyboard: the row above (the binary image) and Enter; its diff says it is binary.
      await page.locator('[data-testid="change-row"][data-path="src/discount.ts"]').focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="head-diff"][data-path="assets/logo.png"] [data-testid="head-diff-binary"]').waitFor();
      await checkScreen(page, `live-binary-diff-${viewport}`, 'binary:', found);
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="head-diff"]').waitFor({ state: 'detached' });
      expect(found).toEqual([]);
    });
  }
});
