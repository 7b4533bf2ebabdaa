/**
 * The findings bench's clock, run in the page: from the press on a file's row in the Files tree to
 * the first frame that draws the file's entry in Problems. Timed on the page's own clock, since
 * Playwright's polling for the entry (a round trip to the browser per poll, slower the busier the
 * machine) added up to half a second to what a person waits for.
 */
import type { Page } from 'playwright-core';

/** What the page recorded, ms on its clock: the press on the row, the entry in the page, the frame that drew it. */
export interface FindingTimes {
  press: number | undefined;
  inserted: number | undefined;
  drawn: number | undefined;
}

/**
 * Arms the page's timer for `file`: a press on its tree row starts it, and the first frame after the
 * file's Problems entry is in the page and visible stops it (read back by `timedFinding`).
 */
export async function armFindingTimer(page: Page, file: string): Promise<void> {
  // A string: the bench runs under tsx, whose named-function helper does not exist in the page.
  await page.evaluate(`(() => {
    const path = CSS.escape(${JSON.stringify(file)});
    const times = (window.__findingTimes = { press: undefined, inserted: undefined, drawn: undefined });
    const row = () => document.querySelector('[data-testid="tree-node"][data-path="' + path + '"]');
    const entry = () => document.querySelector('[data-testid="problems-group"][data-path="' + path + '"]');
    function onPress(e) {
      if (times.press !== undefined || !row()?.contains(e.target)) return;
      times.press = performance.now();
      check();
    }
    function check() {
      if (times.press === undefined || times.drawn !== undefined) return;
      const shown = entry();
      if (!shown || !shown.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return;
      times.drawn = -1;
      times.inserted = performance.now();
      requestAnimationFrame(() => {
        times.drawn = performance.now();
        observer.disconnect();
        document.removeEventListener('pointerdown', onPress, true);
      });
    }
    document.addEventListener('pointerdown', onPress, true);
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'hidden', 'style'] });
  })()`);
}

/** ms from the press to the frame that drew the entry, or undefined when none was drawn within `timeoutMs`. */
export async function timedFinding(page: Page, timeoutMs: number): Promise<number | undefined> {
  try {
    // How often this asks does not change the figure: the page wrote down its own times.
    await page.waitForFunction(() => ((window as any).__findingTimes?.drawn ?? -1) > 0, undefined, { timeout: timeoutMs, polling: 250 });
  } catch {
    return undefined;
  }
  const times = await page.evaluate(() => (window as any).__findingTimes as FindingTimes);
  return times.drawn !== undefined && times.press !== undefined ? times.drawn - times.press : undefined;
}
