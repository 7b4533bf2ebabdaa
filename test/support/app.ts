import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './build.js';

/** Helpers for the application-shell suites (test/e2e/app-*.test.ts): pages, themes, axe, screenshots. */

/** The task list, optionally with a pinned locale (`?locale=`). */
export async function openHome(page: Page, url: string, locale?: string): Promise<void> {
  await page.goto(locale ? `${url}/?locale=${locale}#/` : `${url}/#/`);
  await page.locator('[data-testid="task-list"]').waitFor({ state: 'attached' });
}

export async function openSettings(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/settings`);
  await page.locator('[data-testid="settings-page"]').waitFor();
}

/** Reloads the current page (its URL carries no credential of its own). */
export async function reloadPage(page: Page): Promise<void> {
  await page.reload();
}

/** The OS colour scheme the page sees; with the System theme the app follows it. */
export async function emulateScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
}

/** Waits until the app painted a theme (html[data-theme]). */
export async function expectTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached', timeout: 5_000 });
}

/**
 * The page has painted what it has: web fonts loaded, every finite CSS transition and animation
 * finished (a theme switch fades button backgrounds for 120 ms; axe sampling mid-fade measured a
 * colour that is neither theme's), and two animation frames gone by (a layout that follows a resize
 * observer lands in the first). Checked before a screenshot, axe or a layout measurement instead
 * of a fixed wait. Endless animations (spinners) are not waited for.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const twoFrames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    // A transition starts on the frame after the style change that caused it.
    await twoFrames();
    const finite = () =>
      document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity);
    for (let pending = finite(); pending.length > 0; pending = finite()) {
      await Promise.all(pending.map((animation) => animation.finished.catch(() => undefined)));
    }
    await twoFrames();
  });
}

export const SCREENS_DIR = join(repoRoot, 'test-results/screens');

/** A full-window PNG in test-results/screens/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const path = join(SCREENS_DIR, `${name}.png`);
  // Caret blink and transitions must not make two runs differ.
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

const axeSource = () => readFileSync(join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA rules and best practices). */
export async function seriousAxeViolations(page: Page, exclude: string[] = []): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource() });
  const violations = await page.evaluate(async (excluded) => {
    const axe = (window as any).axe;
    const context = excluded.length ? { include: [document], exclude: excluded.map((s: string) => [s]) } : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(' ')} :: ${n.failureSummary ?? ''}`.slice(0, 300)),
    }));
  }, exclude);
  return violations.filter((v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical');
}

/** Elements wider than the window (a horizontal scrollbar on a phone is a layout bug). */
export async function pageOverflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
