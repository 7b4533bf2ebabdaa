/**
 * The session view with Monaco's own widgets open, in light and dark, at desktop and tablet sizes: axe-core
 * finds no serious or critical violation with src/main.ts open, the Problems, Outline and Search
 * panels showing content, and in turn the find widget with matches, the find widget closed again,
 * the suggest widget and a hover, and text over the find matches is measured against their fill
 * (axe cannot decide it). Their colours are the app's choice (its editor themes), so they
 * are checked with the rest of the page. Each state is screenshotted into test-results/screens/.
 * Each state is built once per size and checked in light and then in dark, the scheme switched on
 * the same page (the session and its server are not set up twice). A theme switch closes the
 * widgets whose content was coloured in the old theme (hover, suggest), proven here too.
 * A phone shows the plain viewer, which has none of these widgets. The two sizes run side by side:
 * each window has a browser context and a language server lease of its own, and neither edits.
 */
import { rmSync } from 'node:fs';
import type { Session } from '@kandev/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emulateScheme,
  expectTheme,
  inLightAndDark,
  switchScheme,
  openDemoMainWithPanels,
  lowContrastUnderFindMatches,
  screenshot,
  seriousAxeViolations,
  settled,
} from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openSession, placeCaret, runEditorAction, startEditorStack, suggestRows } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
/** A tablet has the same editor (with its touch layout around it); a phone has only the plain viewer. */
const VIEWPORTS: Viewport[] = ['desktop', 'tablet'];

describe.runIf(run).concurrent("the session view with the editor's widgets open: no serious accessibility violation", () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let workspace: string;
  let session: Session;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    workspace = copyDemoWorkspace();
    stack = await startEditorStack();
    const task = await stack.createTask({ title: 'Checkout service: fix the discount rounding', workspace });
    session = await stack.startSession(task.id);
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  /** The session with src/main.ts open and every panel showing content. */
  async function sessionWithPanels(viewport: Viewport): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await emulateScheme(page, 'light');
    await openSession(page, stack.url, session.id);
    await expectTheme(page, 'light');
    await openDemoMainWithPanels(page);
    return page;
  }

  /**
   * Serious and critical violations of the page as it is now, in light and in dark, after a
   * screenshot named `name`-<scheme> each; what `shown` selects must still be on screen in both.
   * With `findMatches`, text over the find matches is measured too. `redraw` builds the state again
   * in each scheme where what it shows was coloured once, as it was drawn (a hover's code).
   */
  async function check(
    page: Page,
    name: string,
    { shown = [] as string[], findMatches = false, redraw }: { shown?: string[]; findMatches?: boolean; redraw?: () => Promise<void> } = {},
  ): Promise<string[]> {
    const found: string[] = [];
    await inLightAndDark(page, async (scheme) => {
      if (redraw) await redraw();
      for (const selector of shown) expect(await page.locator(selector).count(), `${name}-${scheme}: ${selector}`).toBeGreaterThan(0);
      await settled(page);
      await screenshot(page, `${name}-${scheme}`);
      found.push(...(await seriousAxeViolations(page)).map((v) => `${name}-${scheme}: ${v.id} ${v.nodes.join(' | ')}`));
      // axe leaves text over the match decorations (a layer beneath the text) undecided: measured here.
      if (findMatches) found.push(...(await lowContrastUnderFindMatches(page)).map((low) => `${name}-${scheme}: text over a find match ${low}`));
    });
    return found;
  }

  for (const viewport of VIEWPORTS) {
    it(`${viewport} light and dark: the find widget with matches, closed again, the suggest widget and a hover`, async () => {
      const page = await sessionWithPanels(viewport);
      const found: string[] = [];

      // Find: every `const` keyword is a match (keywords have the boldest colours), the current one and the other.
      await placeCaret(page, 'greeter.greet');
      await page.keyboard.press('Control+F');
      await page.keyboard.type('const');
      await page.locator('.find-widget.visible .matchesCount', { hasText: /^\d+ of \d+$/ }).waitFor();
      await page.locator('.monaco-editor .findMatch').first().waitFor();
      found.push(...(await check(page, `editor-find-${viewport}`, { shown: ['.find-widget.visible', '.monaco-editor .findMatch'], findMatches: true })));

      // Closed: the widget stays in the DOM, hidden; nothing in it may keep focus.
      await page.keyboard.press('Escape');
      await page.locator('.find-widget.visible').waitFor({ state: 'detached' });
      found.push(...(await check(page, `editor-find-closed-${viewport}`)));
      expect(await page.locator('.find-widget.visible').count()).toBe(0);

      // Suggest: the members of the greeter matching `gr` (matched letters are highlighted). A theme
      // switch closes it (see below), so it is opened afresh in each scheme.
      const suggest = '.editor-widget.suggest-widget.visible .monaco-list-row';
      const showSuggest = async () => {
        if (await page.locator(suggest).count()) return;
        await placeCaret(page, 'greeter.greet(', 'greeter.gr'.length);
        await runEditorAction(page, 'editor.action.triggerSuggest');
        await suggestRows(page).first().waitFor({ timeout: 60_000 });
      };
      await showSuggest();
      found.push(...(await check(page, `editor-suggest-${viewport}`, { shown: [suggest], redraw: showSuggest })));
      await page.keyboard.press('Escape');
      await page.locator('.editor-widget.suggest-widget.visible').waitFor({ state: 'detached' });

      // Hover: the server's type of `greeter`, shown afresh in each scheme.
      const hover = '.monaco-hover:not(.hidden) .hover-row .markdown-hover';
      const showHover = async () => {
        if (await page.locator(hover).count()) return;
        await placeCaret(page, 'const greeter', 'const '.length + 1);
        await runEditorAction(page, 'editor.action.showHover');
        await page.locator(hover).first().waitFor({ timeout: 60_000 });
      };
      found.push(...(await check(page, `editor-hover-${viewport}`, { shown: [hover], redraw: showHover })));

      // A hover's code and a suggestion are coloured once, as they are drawn (token classes of the
      // theme of that moment): left open across a theme switch they kept the old theme's colours
      // (3.86:1 contrast). The switch closes them: gone once the new theme is painted.
      for (const [widget, show, selector] of [
        ['hover', showHover, hover],
        ['suggest', showSuggest, suggest],
      ] as const) {
        for (const scheme of ['dark', 'light'] as const) {
          await show();
          await switchScheme(page, scheme);
          expect(await page.locator(selector).count(), `${widget} still open after the switch to ${scheme}`).toBe(0);
        }
      }

      expect(found).toEqual([]);
    }, 180_000);
  }
});
