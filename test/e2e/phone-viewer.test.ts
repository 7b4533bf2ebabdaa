/**
 * The phone viewer shows what was tapped: a file tapped in the Files tree, or a change tapped in
 * Changes, takes the place of the lists at the top of the screen (below them it would open out of
 * sight), its title has the focus, and Back to files brings the lists back with the focus on the
 * row that was tapped. A change is a plain read-only diff against HEAD (no Monaco on a phone).
 * Light and dark, axe-clean, nothing wider than the phone; screenshots in test-results/screens.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateScheme, expectTheme, pageOverflowsHorizontally, screenshot, seriousAxeViolations } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { writeFiles } from '../support/files.js';
import { openSession, startEditorStack } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** Enough files that the tree and Changes fill more than a phone screen. */
const FILES: Record<string, string> = Object.fromEntries([
  ['src/discount.ts', 'export function discount(total: number): number {\n  return total * 0.9;\n}\n'],
  ['src/legacy.ts', 'export const legacy = true;\n'],
  ...Array.from({ length: 24 }, (_, i) => [`src/module${String(i).padStart(2, '0')}.ts`, `export const value${i} = ${i};\n`]),
]);

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
}

/** The data-path of the element that has the focus (or of its nearest ancestor that has one), and its tag. */
function focused(page: Page): Promise<{ tag: string; path: string | null; text: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName ?? '', path: el?.closest('[data-path]')?.getAttribute('data-path') ?? null, text: el?.textContent ?? '' };
  });
}

/** Whether the element's top is on screen (the phone's viewport), not below the fold. */
async function topInView(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return box !== null && box.y >= 0 && box.y < height;
}

describe.runIf(run)('phone viewer: what was tapped comes into view', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let workspace: string;
  let sessionId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-phone-viewer-')), FILES);
    git(workspace, 'init', '-q', '-b', 'main');
    git(workspace, 'add', '-A');
    git(workspace, '-c', 'user.name=Kandev Test', '-c', 'user.email=test@kandev.invalid', 'commit', '-q', '-m', 'initial');
    writeFileSync(
      join(workspace, 'src/discount.ts'),
      'export function discount(total: number): number {\n  // round to cents\n  return Math.round(total * 90) / 100;\n}\n',
    );
    rmSync(join(workspace, 'src/legacy.ts'));
    stack = await startEditorStack();
    const task = await stack.createTask({ title: 'Round discounts to cents', workspace });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: a tapped file and a tapped change replace the lists, and Back returns to the row`, async () => {
      const context = await newContext(browser.browser, 'phone');
      contexts.push(context);
      const page = await context.newPage();
      await emulateScheme(page, scheme);
      await openSession(page, stack.url, sessionId);
      await expectTheme(page, scheme);
      const found: string[] = [];
      await page.locator('[data-testid="change-row"][data-path="src/legacy.ts"]').waitFor();
      await page.locator('[data-testid="tree-node"][data-path="src"]').tap();
      const row = page.locator('[data-testid="tree-node"][data-path="src/module23.ts"]');
      await row.scrollIntoViewIfNeeded();
      // Below the fold before the tap: the page is scrolled to reach the row.
      expect(await page.evaluate(() => window.scrollY + (document.querySelector('.phone-layout')?.scrollTop ?? 0))).toBeGreaterThan(0);
      await row.tap();

      // The file replaces the lists at once, its title focused and on screen.
      const viewer = '[data-testid="editor"][data-path="src/module23.ts"]';
      await page.locator(`${viewer} [data-testid="readonly-line"]`).first().waitFor();
      expect(await page.locator('[data-testid="phone-session"]').getAttribute('data-shown')).toBe('file');
      expect(await page.locator('[data-testid="file-tree"], [data-testid="changes-panel"]').first().isVisible()).toBe(false);
      expect(await topInView(page, viewer)).toBe(true);
      expect(await topInView(page, '[data-testid="phone-back"]')).toBe(true);
      expect(await focused(page)).toMatchObject({ tag: 'H2', path: 'src/module23.ts' });
      expect(await page.locator(`${viewer} [data-testid="readonly-lines"]`).innerText()).toContain('export const value23 = 23;');
      await screenshot(page, `phone-viewer-file-${scheme}`);
      found.push(...(await seriousAxeViolations(page)).map((v) => `file: ${v.id} ${v.nodes.join(' | ')}`));
      expect(await pageOverflowsHorizontally(page)).toBe(false);

      // Back: the lists as they were, the focus on the row that was tapped.
      await page.locator('[data-testid="phone-back"]').tap();
      await page.locator('[data-testid="phone-session"][data-shown="files"]').waitFor();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'LI', path: 'src/module23.ts' });
      expect(await row.isVisible()).toBe(true);

      // A change from Changes: its diff against HEAD, read-only, in the same place.
      const change = page.locator('[data-testid="change-row"][data-path="src/discount.ts"]');
      await change.scrollIntoViewIfNeeded();
      await change.tap();
      const diff = '[data-testid="phone-diff"][data-path="src/discount.ts"]';
      await page.locator(`${diff}[data-state="loaded"]`).waitFor();
      expect(await page.locator('[data-testid="changes-panel"]').isVisible()).toBe(false);
      expect(await topInView(page, diff)).toBe(true);
      expect(await focused(page)).toMatchObject({ tag: 'H2', path: 'src/discount.ts' });
      const lines = page.locator(`${diff} [data-testid="phone-diff-line"]`);
      const rows = await lines.evaluateAll((els) => els.map((el) => `${el.getAttribute('data-kind')} ${el.querySelector('code')?.textContent}`));
      expect(rows).toEqual([
        'same export function discount(total: number): number {',
        'removed   return total * 0.9;',
        'added   // round to cents',
        'added   return Math.round(total * 90) / 100;',
        'same }',
      ]);
      expect(await page.locator('[data-testid="monaco-loaded"], .monaco-editor').count()).toBe(0);
      await screenshot(page, `phone-viewer-diff-${scheme}`);
      found.push(...(await seriousAxeViolations(page)).map((v) => `diff: ${v.id} ${v.nodes.join(' | ')}`));
      expect(await pageOverflowsHorizontally(page)).toBe(false);

      await page.locator('[data-testid="phone-back"]').tap();
      await expect.poll(() => focused(page)).toMatchObject({ tag: 'BUTTON', path: 'src/discount.ts' });

      // A deleted file: everything HEAD had, removed.
      await page.locator('[data-testid="change-row"][data-path="src/legacy.ts"]').tap();
      await page.locator('[data-testid="phone-diff"][data-path="src/legacy.ts"][data-state="loaded"]').waitFor();
      expect(await page.locator('[data-testid="phone-diff-line"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-kind')))).toEqual(['removed']);
      expect(found).toEqual([]);
    });
  }
});
