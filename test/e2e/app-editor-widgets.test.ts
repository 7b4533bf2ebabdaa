/**
 * The session view with Monaco's own widgets open, in light and dark, at desktop and tablet sizes: axe-core
 * finds no serious or critical violation with src/main.ts open, the Problems, Outline and Search
 * panels showing content, and in turn the find widget with matches, the find widget closed again,
 * the suggest widget and a hover, and text over the find matches is measured against their fill
 * (axe cannot decide it). Their colours are the app's choice (its editor themes), so they
 * are checked with the rest of the page. Each state is screenshotted into test-results/screens/.
 * A phone shows the plain viewer, which has none of these widgets.
 */
import { rmSync } from 'node:fs';
import type { Session } from '@kandev/protocol';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateScheme, expectTheme, lowContrastUnderFindMatches, screenshot, seriousAxeViolations, settled } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openSession, placeCaret, runEditorAction, startEditorStack, suggestRows, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const SCHEMES = ['light', 'dark'] as const;
/** A tablet has the same editor (with its touch layout around it); a phone has only the plain viewer. */
const VIEWPORTS: Viewport[] = ['desktop', 'tablet'];

describe.runIf(run)("the session view with the editor's widgets open: no serious accessibility violation", () => {
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
  async function sessionWithPanels(viewport: Viewport, scheme: 'light' | 'dark'): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await emulateScheme(page, scheme);
    await openSession(page, stack.url, session.id);
    await expectTheme(page, scheme);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await page.locator('[data-testid="problems-group"][data-path="src/main.ts"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="outline"] [data-symbol="greeter"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('search-input').fill('greet');
    await page.locator('[data-testid="search-panel"][data-search-state="done"] [data-testid="search-hit"]').first().waitFor();
    return page;
  }

  /** Serious and critical violations of the page as it is now, after a screenshot named `name`. */
  async function check(page: Page, name: string): Promise<string[]> {
    await settled(page);
    await screenshot(page, name);
    return (await seriousAxeViolations(page)).map((v) => `${name}: ${v.id} ${v.nodes.join(' | ')}`);
  }

  for (const [viewport, scheme] of VIEWPORTS.flatMap((v) => SCHEMES.map((s) => [v, s] as const))) {
    it(`${viewport} ${scheme}: the find widget with matches, closed again, the suggest widget and a hover`, async () => {
      const page = await sessionWithPanels(viewport, scheme);
      const found: string[] = [];

      // Find: every `const` keyword is a match (keywords have the boldest colours), the current one and the other.
      await placeCaret(page, 'greeter.greet');
      await page.keyboard.press('Control+F');
      await page.keyboard.type('const');
      await page.locator('.find-widget.visible .matchesCount', { hasText: /^\d+ of \d+$/ }).waitFor();
      await page.locator('.monaco-editor .findMatch').first().waitFor();
      found.push(...(await check(page, `editor-find-${viewport}-${scheme}`)));
      // axe leaves text over the match decorations (a layer beneath the text) undecided: measured here.
      found.push(...(await lowContrastUnderFindMatches(page)).map((low) => `editor-find-${viewport}-${scheme}: text over a find match ${low}`));

      // Closed: the widget stays in the DOM, hidden; nothing in it may keep focus.
      await page.keyboard.press('Escape');
      await page.locator('.find-widget.visible').waitFor({ state: 'detached' });
      found.push(...(await check(page, `editor-find-closed-${viewport}-${scheme}`)));

      // Suggest: the members of the greeter matching `gr` (matched letters are highlighted).
      await placeCaret(page, 'greeter.greet(', 'greeter.gr'.length);
      await runEditorAction(page, 'editor.action.triggerSuggest');
      await suggestRows(page).first().waitFor({ timeout: 60_000 });
      found.push(...(await check(page, `editor-suggest-${viewport}-${scheme}`)));
      await page.keyboard.press('Escape');
      await page.locator('.editor-widget.suggest-widget.visible').waitFor({ state: 'detached' });

      // Hover: the server's type of `greeter`.
      await placeCaret(page, 'const greeter', 'const '.length + 1);
      await runEditorAction(page, 'editor.action.showHover');
      await page.locator('.monaco-hover:not(.hidden) .hover-row .markdown-hover').first().waitFor({ timeout: 60_000 });
      found.push(...(await check(page, `editor-hover-${viewport}-${scheme}`)));

      expect(found).toEqual([]);
    }, 180_000);
  }
});
