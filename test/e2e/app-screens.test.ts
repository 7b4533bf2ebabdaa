/**
 * The application shell as a person sees it, at desktop, tablet and phone sizes, in light and
 * dark: every key screen is screenshotted into test-results/screens/, axe-core finds no serious or
 * critical violation on the task list, session, settings and status surfaces, nothing overflows a
 * 390 px phone sideways, and the status bar stays inside the window. Each screen is built once per
 * size and checked in light and then in dark, the scheme switched on the same page.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Session, Task } from '@kandev/protocol';
import {
  emulateScheme,
  openDemoMainWithPanels,
  expectTheme,
  inLightAndDark,
  openHome,
  openSettings,
  reloadPage,
  pageOverflowsHorizontally,
  screenshot,
  seriousAxeViolations,
  settled,
} from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openSession, startEditorStack } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const VIEWPORTS: Viewport[] = ['desktop', 'tablet', 'phone'];

describe.runIf(run)('application shell: screens, accessibility and layout', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let workspace: string;
  let task: Task;
  let session: Session;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    workspace = copyDemoWorkspace();
    stack = await startEditorStack();
    task = await stack.createTask({ title: 'Checkout service: fix the discount rounding', workspace });
    await stack.createTask({ title: 'Docs refresh', executor: 'local_docker', workspace });
    const remote = await stack.api<Task>('/api/tasks', {
      body: { title: 'Remote build farm', executor: 'remote_docker', repositories: [{ path: '/workspace' }] },
    });
    await stack.api(`/api/tasks/${remote.id}/sessions`, { method: 'POST', body: {} }).catch(() => undefined);
    session = await stack.startSession(task.id);
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

  async function expectStatusBarInside(page: Page): Promise<void> {
    const bar = page.locator('[data-testid="status-bar"]');
    await bar.waitFor();
    const box = await bar.boundingBox();
    const height = await page.evaluate(() => window.innerHeight);
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(height + 0.5);
    expect(box?.height ?? 0).toBeGreaterThan(10);
  }

  /**
   * The screen as it is, in light and in dark (see inLightAndDark): a screenshot `name`-<viewport>-<scheme>
   * each, axe's serious and critical violations (as `where: rule nodes`), and `layout` checked in both.
   */
  async function checkScreen(page: Page, name: string, viewport: Viewport, layout: () => Promise<void> = async () => {}): Promise<string[]> {
    const found: string[] = [];
    const where = () => page.url().replace(stack.url, '');
    await inLightAndDark(page, async (scheme) => {
      await screenshot(page, `${name}-${viewport}-${scheme}`);
      found.push(...(await seriousAxeViolations(page)).map((v) => `${where()} ${scheme}: ${v.id} ${v.nodes.join(' | ')}`));
      await layout();
    });
    return found;
  }

  for (const viewport of VIEWPORTS) {
    it(`${viewport} light and dark: task list, session and settings`, async () => {
      const page = await pageFor(viewport);
      const found: string[] = [];
      const layout = async () => {
        if (viewport === 'phone') expect(await pageOverflowsHorizontally(page)).toBe(false);
        else await expectStatusBarInside(page);
      };
      await emulateScheme(page, 'light');
      await openHome(page, stack.url);
      await expectTheme(page, 'light');
      await page.locator(`[data-testid="task-row"][data-task-id="${task.id}"] [data-testid="session-row"]`).first().waitFor();
      found.push(...(await checkScreen(page, 'tasks', viewport, layout)));

      await openSession(page, stack.url, session.id);
      await page.locator('[data-testid="session-task-title"]', { hasText: task.title }).waitFor();
      if (viewport === 'phone') {
        await page.locator('[data-testid="tree-node"][data-path="src"]').click();
        await page.locator('[data-testid="tree-node"][data-path="src/greeter.ts"]').click();
        await page.locator('.readonly-viewer, [data-testid="editor"]').first().waitFor();
      } else {
        // An editor with the server's colours and every panel with content: the Problems of
        // the demo's deliberate type error, the Outline of the file, and search hits.
        await openFile(page, 'src/greeter.ts');
        await openDemoMainWithPanels(page);
      }
      await page.locator('.monaco-editor .view-lines .view-line, .readonly-viewer').first().waitFor();
      // The editor is checked with the rest: its colours are the app's choice (its themes).
      found.push(...(await checkScreen(page, 'session', viewport, layout)));

      await openSettings(page, stack.url);
      await page.locator('[data-testid="language-card"]').first().waitFor();
      found.push(...(await checkScreen(page, 'settings', viewport, layout)));
      expect(found).toEqual([]);
    });
  }

  it('desktop light and dark: the new-task dialog, quick open, shortcuts and the LSP status surface', async () => {
    const page = await pageFor('desktop');
    const found: string[] = [];
    /** The state's own element must still be shown in both schemes. */
    const shown = (testId: string) => async () => expect(await page.getByTestId(testId).isVisible(), testId).toBe(true);
    await emulateScheme(page, 'light');
    await openHome(page, stack.url);
    await page.getByTestId('new-task').click();
    await page.getByTestId('create-task-dialog').waitFor();
    await page.getByTestId('task-repo-input').fill('relative/folder');
    await page.getByTestId('task-title-input').fill('A task');
    await page.getByTestId('create-task-submit').click();
    await page.locator('[data-testid="task-error"][data-field="repositories"]').waitFor();
    found.push(...(await checkScreen(page, 'dialog-new-task', 'desktop', shown('create-task-dialog'))));
    await page.keyboard.press('Escape');

    await openSession(page, stack.url, session.id);
    await openFile(page, 'src/greeter.ts');
    await page.keyboard.press('Control+P');
    await page.getByTestId('quick-open-input').fill('mts');
    await page.locator('[data-testid="quick-open-item"]').first().waitFor();
    found.push(...(await checkScreen(page, 'quick-open', 'desktop', shown('quick-open-input'))));
    await page.keyboard.press('Escape');

    await page.getByTestId('shortcuts-button').click();
    await page.getByTestId('shortcuts-dialog').waitFor();
    found.push(...(await checkScreen(page, 'shortcuts', 'desktop', shown('shortcuts-dialog'))));
    await page.keyboard.press('Escape');

    const trigger = page.locator('[data-testid="lsp-status-trigger"]').first();
    await trigger.click();
    await page.getByTestId('lsp-status-panel').waitFor();
    found.push(...(await checkScreen(page, 'lsp-status', 'desktop', shown('lsp-status-panel'))));
    expect(found).toEqual([]);
  });

  it('the Settings theme switch pins Light or Dark over the OS choice, survives a reload, and Monaco follows', async () => {
    const page = await pageFor('desktop');
    await emulateScheme(page, 'light');
    await openSettings(page, stack.url);
    await expectTheme(page, 'light');
    expect(await page.getByTestId('settings-theme').getAttribute('data-theme-preference')).toBe('system');
    await page.getByTestId('settings-theme-dark').check();
    await expectTheme(page, 'dark');
    await reloadPage(page);
    await page.getByTestId('settings-page').waitFor();
    await expectTheme(page, 'dark');
    expect(await page.getByTestId('settings-theme').getAttribute('data-theme-preference')).toBe('dark');

    await openSession(page, stack.url, session.id);
    await openFile(page, 'src/main.ts');
    await page.locator('.monaco-editor.vs-dark').first().waitFor();
    await openSettings(page, stack.url);
    await page.getByTestId('settings-theme-system').check();
    await expectTheme(page, 'light');
    // System follows the OS live.
    await emulateScheme(page, 'dark');
    await expectTheme(page, 'dark');
    await openSession(page, stack.url, session.id);
    await page.locator('.monaco-editor.vs-dark').first().waitFor();
    await emulateScheme(page, 'light');
    await page.locator('.monaco-editor.vs').first().waitFor();
  });

  it('the pseudo locale (a third longer, accented) still fits a 390 px phone and a tablet without sideways overflow', async () => {
    for (const viewport of ['phone', 'tablet'] as const) {
      const page = await pageFor(viewport);
      await openHome(page, stack.url, 'pseudo');
      await page.locator(`[data-testid="task-row"][data-task-id="${task.id}"] [data-testid="session-row"]`).first().waitFor();
      expect(await pageOverflowsHorizontally(page)).toBe(false);
      await screenshot(page, `tasks-${viewport}-pseudo`);
      await page.locator(`[data-testid="task-row"][data-task-id="${task.id}"] [data-testid="session-link"]`).first().click();
      await page.getByTestId('session-view').waitFor();
      await page.locator('[data-testid="session-task-title"]', { hasText: task.title }).waitFor();
      await page.locator('[data-testid="tree-node"][data-path="src"]').click();
      await page.locator('[data-testid="tree-node"][data-path="src/greeter.ts"]').click();
      await page.locator('[data-testid="editor"][data-path="src/greeter.ts"]').waitFor();
      await page.locator('.monaco-editor .view-lines .view-line, .readonly-viewer').first().waitFor();
      await settled(page);
      expect(await pageOverflowsHorizontally(page)).toBe(false);
      await screenshot(page, `session-${viewport}-pseudo`);
    }
  });
});
