import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { emulateScheme, inLightAndDark, screenshot, seriousAxeViolations } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { documentOverflowsHorizontally, openFile, openSession, startEditorStack, waitForLspState } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';
import { MAX_ROW_CHARS } from '../../apps/web/src/lib/viewer/viewerRows.js';

/**
 * Big lists stay light and inside their panels: 40,000 Outline rows and 10,000 problems from the
 * real typescript-language-server draw only the rows in view, the Outline never covers the Files
 * tree, and the Problems panel keeps its height, at desktop and tablet sizes (phones open no
 * language server, so they have neither list: their viewer must still open the big file). Each
 * list is loaded once per size and screenshotted in light and then in dark on the same page.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const OUTLINE_ROWS = 40_000;
const PROBLEMS = 10_000;
const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n') + '\n';

/** A minified file: one line of about 3 MB (a JSON array of numbers), and a newline. */
const ONE_LINE = `[${Array.from({ length: 400_000 }, (_, i) => i).join(',')}]`;

const FILES: Record<string, string> = {
  'data/minified.json': `${ONE_LINE}\n`,
  'src/big.ts': lines(OUTLINE_ROWS, (i) => `export const v${i}: number = ${i};`),
  'src/errors.ts': lines(PROBLEMS, (i) => `export const e${i}: string = ${i};`),
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
};

type Box = { top: number; bottom: number; left: number; right: number };

async function box(page: Page, selector: string): Promise<Box> {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not on screen`);
  return { top: b.y, bottom: b.y + b.height, left: b.x, right: b.x + b.width };
}

describe.runIf(run)('big lists stay light: Outline and Problems are virtualized and stay inside their panels', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;

  beforeAll(async () => {
    stack = await startEditorStack();
    const workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-big-lists-')), FILES);
    const task = await stack.createTask({ title: 'Big lists', workspace });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it.each(['desktop', 'tablet'] as Viewport[])(
    '%s light and dark: 10,000 problems and 40,000 outline rows draw a screenful each, inside their panels',
    async (viewport) => {
      const page = await (await newContext(browser.browser, viewport)).newPage();
      await emulateScheme(page, 'light');
      await openSession(page, stack.url, sessionId);

      await openFile(page, 'src/errors.ts');
      await waitForLspState(page, 'typescript', 'ready');
      const panel = page.locator('[data-testid="problems-panel"]');
      await page.locator(`[data-testid="problems-panel"][data-total="${PROBLEMS}"]`).waitFor({ timeout: 120_000 });
      if ((await page.getByTestId('problems-toggle').getAttribute('aria-expanded')) !== 'true') await page.getByTestId('problems-toggle').click();
      await page.locator('[data-testid="problem-row"]').first().waitFor();
      const drawnProblems = await page.locator('[data-testid="problem-row"]').count();
      expect(drawnProblems).toBeGreaterThan(0);
      expect(drawnProblems).toBeLessThan(100);
      const problemsBox = await box(page, '[data-testid="problems-panel"]');
      const main = await box(page, '.session-main');
      expect(problemsBox.bottom).toBeLessThanOrEqual(main.bottom + 1);
      expect(problemsBox.bottom - problemsBox.top).toBeLessThan((main.bottom - main.top) / 2);
      // The last problem is reachable by scrolling the panel's own list.
      await page.locator('[data-testid="problems-rows"]').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.locator(`[data-testid="problem-row"][data-line="${PROBLEMS}"]`).waitFor();
      // The Outline of the file shows its symbols once the server answers (not "no outline").
      await page.locator(`[data-testid="outline-rows"][data-rows="${PROBLEMS}"]`).waitFor({ timeout: 60_000 });
      await inLightAndDark(page, async (scheme) => {
        await screenshot(page, `big-problems-${viewport}-${scheme}`);
      });
      expect(await panel.getAttribute('data-total')).toBe(String(PROBLEMS));

      await openFile(page, 'src/big.ts');
      await page.locator(`[data-testid="outline-rows"][data-rows="${OUTLINE_ROWS}"]`).waitFor({ timeout: 120_000 });
      const drawnSymbols = await page.locator('[data-testid="outline"] [data-symbol]').count();
      expect(drawnSymbols).toBeGreaterThan(0);
      expect(drawnSymbols).toBeLessThan(100);
      const files = await box(page, '.file-tree');
      const outline = await box(page, '[data-testid="outline"]');
      const sidebar = await box(page, '.session-sidebar');
      expect(outline.top).toBeGreaterThanOrEqual(files.bottom - 1);
      // The sidebar scrolls as a whole; the Outline takes at most half of it, whatever its number of rows.
      expect(outline.bottom - outline.top).toBeLessThanOrEqual((sidebar.bottom - sidebar.top) / 2 + 1);
      expect(files.bottom - files.top).toBeGreaterThanOrEqual(96);
      await page.locator('[data-testid="outline-rows"]').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.locator(`[data-testid="outline"] [data-symbol="v${OUTLINE_ROWS - 1}"]`).waitFor();
      await inLightAndDark(page, async (scheme) => {
        expect(await documentOverflowsHorizontally(page)).toBe(false);
        await screenshot(page, `big-outline-${viewport}-${scheme}`);
      });
      await page.context().close();
    },
  );

  it('phone light and dark: the read-only viewer draws a window of the 40,001 lines, reaches the last one and passes axe', async () => {
    const page = await (await newContext(browser.browser, 'phone')).newPage();
    await emulateScheme(page, 'light');
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'src/big.ts');
    const text = page.locator('[data-testid="readonly-lines"]');
    // The file's 40,000 lines and the empty one after its last newline.
    await page.locator(`[data-testid="readonly-lines"][data-rows="${OUTLINE_ROWS + 1}"]`).waitFor();
    await page.locator('[data-testid="readonly-line"]').first().waitFor();
    const drawn = await page.locator('[data-testid="readonly-line"]').count();
    expect(drawn).toBeGreaterThanOrEqual(10);
    expect(drawn).toBeLessThanOrEqual(200);
    await inLightAndDark(page, async (scheme) => {
      expect(await documentOverflowsHorizontally(page)).toBe(false);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, `big-file-phone-${scheme}`);
    });
    await text.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const last = page.locator(`[data-testid="readonly-line"][data-line="${OUTLINE_ROWS}"]`);
    await last.waitFor();
    expect(await last.innerText()).toContain(`export const v${OUTLINE_ROWS - 1}: number = ${OUTLINE_ROWS - 1};`);
    expect(await page.locator('[data-testid="readonly-line"]').count()).toBeLessThanOrEqual(200);
    await inLightAndDark(page, async (scheme) => {
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, `big-file-phone-end-${scheme}`);
    });
    await page.context().close();
  });

  it('phone: a one-line file of 3 MB is cut into rows of at most MAX_ROW_CHARS, numbered once; the viewer draws a window of them and reaches the end', async () => {
    const page = await (await newContext(browser.browser, 'phone')).newPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'data/minified.json');
    const text = page.locator('[data-testid="readonly-lines"]');
    // The pieces of line 1 and the empty line after the final newline.
    await page.locator(`[data-testid="readonly-lines"][data-rows="${Math.ceil(ONE_LINE.length / MAX_ROW_CHARS) + 1}"]`).waitFor();
    const rows = page.locator('[data-testid="readonly-line"]');
    await rows.first().waitFor();
    expect(await rows.count()).toBeLessThanOrEqual(200);
    const drawn = await rows.evaluateAll((els) =>
      els.map((el) => ({
        line: el.getAttribute('data-line'),
        continued: el.hasAttribute('data-continued'),
        number: el.querySelector('.line-number')?.textContent,
        chars: el.querySelector('code')?.textContent?.length ?? 0,
      })),
    );
    expect(drawn[0]).toEqual({ line: '1', continued: false, number: '1', chars: MAX_ROW_CHARS });
    expect(drawn[1]).toMatchObject({ line: '1', continued: true, number: '' });
    expect(Math.max(...drawn.map((r) => r.chars))).toBeLessThanOrEqual(MAX_ROW_CHARS);
    expect(await documentOverflowsHorizontally(page)).toBe(false);
    await text.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const tail = page.locator('[data-testid="readonly-line"][data-line="1"][data-continued]').last();
    await expect.poll(async () => (await tail.innerText()).endsWith('399999]'), { timeout: 15_000 }).toBe(true);
    expect(await rows.count()).toBeLessThanOrEqual(200);
    await screenshot(page, 'big-one-line-phone');
    await page.context().close();
  });
});
