import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './build.js';
import { openFile, waitForLspState } from './page.js';

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

/**
 * Runs `check` on the screen as it is, in light and then in dark, switching the OS scheme the
 * System theme follows on the same page, and leaves the page light again. A screen built once (a
 * session with its server ready, a widget open) serves both schemes instead of being built twice;
 * each scheme is checked once it is fully painted: the app's theme attribute, Monaco's theme on
 * every editor shown, and every transition of the switch finished (`settled`: axe sampling the
 * fade measures a colour of neither theme).
 */
export async function inLightAndDark(page: Page, check: (scheme: 'light' | 'dark') => Promise<void>): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await switchScheme(page, scheme);
    await settled(page);
    await check(scheme);
  }
  await emulateScheme(page, 'light');
  await expectTheme(page, 'light');
}

/**
 * An editor's view as Monaco draws it: the `.monaco-editor` that holds its `.overflow-guard`. A code
 * editor has one, a diff editor one per side; each carries the class of Monaco's theme (`vs`,
 * `vs-dark`). Monaco also classes other elements `monaco-editor` so its colour variables reach
 * them (the diff editor's gutter between its sides, the rename box): those carry no theme class
 * in either theme and take the theme's colours from the variables Monaco's theme sets page-wide.
 */
const EDITOR_VIEW = '.monaco-editor:has(> .overflow-guard)';

/** Switches the OS scheme and waits until the app and the view of every Monaco editor shown have taken its theme. */
export async function switchScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await emulateScheme(page, scheme);
  await expectTheme(page, scheme);
  await page.waitForFunction(({ selector, dark }) => [...document.querySelectorAll(selector)].every((view) => view.classList.contains('vs-dark') === dark), {
    selector: EDITOR_VIEW,
    dark: scheme === 'dark',
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

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.x A/AA rules and best
 * practices). Every axe rule reports one fixed impact (its `impact`, which axe stamps on each of its
 * findings): a rule whose impact is minor or moderate can add nothing to what this returns, so it is
 * not run. That is the same answer for less work (about a fifth of a run on the session page); a rule
 * without a fixed impact still runs.
 */
export async function seriousAxeViolations(page: Page, exclude: string[] = []): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource() });
  const violations = await page.evaluate(async (excluded) => {
    const axe = (window as any).axe;
    const context = excluded.length ? { include: [document], exclude: excluded.map((s: string) => [s]) } : document;
    const belowSerious = (axe._audit.rules as Array<{ id: string; impact?: string }>).filter((rule) => rule.impact === 'minor' || rule.impact === 'moderate');
    const rules = Object.fromEntries(belowSerious.map((rule) => [rule.id, { enabled: false }]));
    const result = await axe.run(context, { resultTypes: ['violations'], rules });
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

/**
 * Text drawn over the editor's find-match decorations whose contrast with what is under it is
 * below `minimum` (WCAG AA, 4.5:1), as `text ratio`. The decorations are a layer of their own
 * beneath the text, which axe's colour-contrast rule reports as undecidable rather than measuring;
 * this measures it: each match's fill composited over the editor's background, against the colour
 * of each token it lies under.
 */
export async function lowContrastUnderFindMatches(page: Page, minimum = 4.5): Promise<string[]> {
  return page.evaluate((minimum) => {
    type Rgba = [number, number, number, number];
    const parse = (css: string): Rgba => {
      const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
      return [r, g, b, css.startsWith('rgba') ? a : 1];
    };
    const over = (top: Rgba, under: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + under[i]! * (1 - top[3])).concat(1) as Rgba;
    const luminance = ([r, g, b]: Rgba) =>
      [r, g, b]
        .map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i]!, 0);
    const ratio = (a: Rgba, b: Rgba) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    const out: string[] = [];
    for (const editor of document.querySelectorAll<HTMLElement>('.monaco-editor')) {
      const background = parse(getComputedStyle(editor.querySelector('.monaco-editor-background') ?? editor).backgroundColor);
      const tokens = [...editor.querySelectorAll<HTMLElement>('.view-line span span')];
      for (const match of editor.querySelectorAll<HTMLElement>('.findMatch, .currentFindMatch')) {
        const fill = over(parse(getComputedStyle(match).backgroundColor), background);
        const box = match.getBoundingClientRect();
        for (const token of tokens) {
          const t = token.getBoundingClientRect();
          const overlaps = t.left < box.right && t.right > box.left && t.top < box.bottom && t.bottom > box.top;
          if (!overlaps || !token.textContent?.trim()) continue;
          const measured = ratio(parse(getComputedStyle(token).color), fill);
          if (measured < minimum) out.push(`${token.textContent} ${measured.toFixed(2)}`);
        }
      }
    }
    return out;
  }, minimum);
}

/**
 * The demo's src/main.ts open with its server ready and every panel showing content: the Problems
 * of its deliberate type error, the Outline of the file, and search hits.
 */
export async function openDemoMainWithPanels(page: Page): Promise<void> {
  await openFile(page, 'src/main.ts');
  await waitForLspState(page, 'typescript', 'ready');
  await page.locator('[data-testid="problems-group"][data-path="src/main.ts"]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="outline"] [data-symbol="greeter"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('search-input').fill('greet');
  await page.locator('[data-testid="search-panel"][data-search-state="done"] [data-testid="search-hit"]').first().waitFor();
}

/**
 * Keeps the servers' plain messages on screen until dismissed (an hour instead of ten seconds),
 * so a check of where toasts sit does not race their timer. Call before the page loads the app.
 */
export async function keepServerToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __kandev?: Record<string, unknown> };
    w.__kandev = { ...w.__kandev, messageToastMs: 3_600_000 };
  });
}

/**
 * What the server toasts hide: elements outside the toast region that lie under a toast (sampled
 * on a grid of points across each toast), as `tag[testid].class`. Empty means the toasts cover
 * nothing of the page (the region's own ancestors, which merely contain it, aside).
 */
export async function coveredByToasts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const region = document.querySelector('[data-testid="server-toasts"]');
    if (!region) return [];
    const covered = new Set<string>();
    for (const toast of region.querySelectorAll('[data-testid="server-toast"]')) {
      const box = toast.getBoundingClientRect();
      for (let i = 1; i < 6; i++) {
        for (let j = 1; j < 4; j++) {
          const x = box.left + (box.width * i) / 6;
          const y = box.top + (box.height * j) / 4;
          for (const el of document.elementsFromPoint(x, y)) {
            if (region.contains(el) || el.contains(region)) continue;
            const h = el as HTMLElement;
            covered.add(`${h.tagName.toLowerCase()}${h.dataset.testid ? `[${h.dataset.testid}]` : ''}${h.classList[0] ? `.${h.classList[0]}` : ''}`);
          }
        }
      }
    }
    return [...covered].slice(0, 12);
  });
}
