import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coveredByToasts, inLightAndDark, keepServerToasts, pageOverflowsHorizontally, screenshot, settled } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  hoverRows,
  openFile,
  openSession,
  placeCaret,
  problemRows,
  putSettings,
  runEditorAction,
  startEditorStack,
  waitForLspState,
  withEditor,
} from '../support/page.js';
import { preinstallServers } from '../support/preinstalledServers.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

/**
 * The component languages (Vue, Astro: a TextMate grammar with TypeScript embedded, servers from
 * npm) as a person sees them, at desktop, tablet and phone sizes, in light and dark: the demo file
 * open, its finding in Problems and a hover on a call (desktop and tablet; phones open no language
 * server), screenshotted into test-results/screens/component-<language>-<viewport>-<scheme>.png.
 * Their servers load the workspace's TypeScript plugins, so the task trusts its tools. The Astro
 * server's warning (no Astro package in the workspace) stays on screen as a toast, which must cover
 * nothing of the page: not the Problems rows at a tablet's height, nor a phone's viewer when the
 * tablet is turned narrow.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const CASES = [
  {
    language: 'vue',
    file: 'vue/Counter.vue',
    finding: /Type 'number' is not assignable to type 'string'/,
    hover: { at: 'increment(1)', offset: 2 },
    shows: /function increment/,
  },
  {
    language: 'astro',
    file: 'astro/Greeting.astro',
    finding: /Type 'string' is not assignable to type 'number'/,
    hover: { at: 'shout(visitor);', offset: 2 },
    shows: /function shout/,
  },
] as const;
const VIEWPORTS: Viewport[] = ['desktop', 'tablet', 'phone'];

describe.runIf(run)('Vue and Astro files at every size, light and dark', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let sessionId: string;
  let work: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kandev-e2e-components-'));
    stack = await startEditorStack();
    const languages = CASES.map((c) => c.language);
    await putSettings(stack, { lsp_auto_start_languages: languages, lsp_auto_install_languages: languages });
    // The servers, already in the task HOME as agentctl's install leaves them (installing them is
    // proven by the integration files trust-vue and trust-astro, from an empty HOME).
    await preinstallServers(join(work, 'home'), languages);
    const task = await stack.createTask({ title: 'Components', workspace: copyDemoWorkspace(), env: { HOME: join(work, 'home') } });
    await stack.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  }, 900_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function pageFor(viewport: Viewport): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await keepServerToasts(page);
    return page;
  }

  for (const viewport of VIEWPORTS) {
    it(`${viewport}: each file with its finding and a hover, in light and dark`, async () => {
      const page = await pageFor(viewport);
      await openSession(page, stack.url, sessionId);
      for (const c of CASES) {
        await openFile(page, c.file);
        if (viewport !== 'phone') {
          await waitForLspState(page, c.language, 'ready', 240_000);
          await expect.poll(async () => (await problemRows(page, c.file)).join('\n'), { timeout: 120_000 }).toMatch(c.finding);
          // The Astro server says it found no Astro package: its toast must leave the Problems rows in view.
          if (c.language === 'astro') await page.locator('[data-testid="server-toast"][data-language="astro"]').waitFor({ timeout: 60_000 });
          expect(await coveredByToasts(page), `${c.file} ${viewport}: under the toasts`).toEqual([]);
        }
        await inLightAndDark(page, async (scheme) => {
          // A theme switch closes the hover (drawn in the old theme's colours): it is shown afresh.
          if (viewport !== 'phone') {
            await placeCaret(page, c.hover.at, c.hover.offset);
            // The editor is short at a tablet's height with Problems and a toast below it: the line is brought into view, as a person scrolls to it.
            await withEditor(page, (editor) => editor.revealPositionInCenterIfOutsideViewport(editor.getPosition()));
            await runEditorAction(page, 'editor.action.showHover');
            await expect.poll(async () => (await hoverRows(page)).join('\n'), { timeout: 30_000 }).toMatch(c.shows);
          }
          await settled(page);
          await screenshot(page, `component-${c.language}-${viewport}-${scheme}`);
          if (viewport === 'phone') expect(await pageOverflowsHorizontally(page)).toBe(false);
          await page.keyboard.press('Escape');
        });
        // A phone shows one file at a time: back to the lists for the next one.
        if (viewport === 'phone') await page.getByTestId('phone-back').tap();
      }
      if (viewport === 'tablet') {
        // The tablet turned narrow is a phone (its plain viewer), with the Astro toast still up: it covers nothing there either.
        await page.setViewportSize({ width: 390, height: 844 });
        await page.locator('[data-testid="session-view"][data-form-factor="phone"]').waitFor();
        await page.locator('[data-testid="server-toast"][data-language="astro"]').waitFor();
        await inLightAndDark(page, async (scheme) => {
          expect(await coveredByToasts(page), `narrow tablet ${scheme}: under the toasts`).toEqual([]);
          expect(await pageOverflowsHorizontally(page)).toBe(false);
          await screenshot(page, `component-toast-narrow-tablet-${scheme}`);
        });
      }
    }, 600_000);
  }
});
