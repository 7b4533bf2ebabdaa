/**
 * The `status_bar` location (S50-S53) in Chromium against the real stack: one reorderable item for
 * the active Monaco file, its order saved through PUT /api/settings (status_bar_order), the toolbar
 * fallback that never rewrites the preference, and no item for anything that is not a mounted
 * Monaco editor of a supported file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import type { UserSettings } from '@kandev/protocol';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { installFakeServer, writeKotlinWorkspace, writeScript } from '../support/fakeServer.js';
import { lspPanel, lspStatus, openFile, openSessionInLocale, startEditorStack, statusBarLspItem, waitForLspState } from '../support/page.js';
import { taskPath, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('the application status bar item', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let root: string;
  let sessionId: string;
  let otherSessionId: string;
  const contexts: BrowserContext[] = [];

  const settings = () => stack.api<UserSettings>('/api/settings');
  const putSettings = (patch: Partial<UserSettings>) => stack.api<UserSettings>('/api/settings', { method: 'PUT', body: patch });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kandev-status-bar-'));
    const binDir = join(root, 'bin');
    installFakeServer(binDir, 'kotlin-lsp');
    const ws = writeKotlinWorkspace(join(root, 'ws'), {
      'src/Slow.kt': 'class Slow\n',
      'src/Blob.kt': Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x62, 0x69, 0x6e]),
      'notes.txt': 'plain notes\n',
    });
    // Its own snapshot of the built web app: a rebuild by another suite cannot swap assets mid-test.
    stack = await startEditorStack();
    const env = {
      PATH: taskPath(binDir),
      FAKE_LSP_SCRIPT: writeScript(root, { capabilities: { textDocumentSync: 1 } }),
      FAKE_LSP_LOG: join(root, 'fake.jsonl'),
    };
    const task = await stack.createTask({ title: 'status bar', workspace: ws, env });
    sessionId = (await stack.startSession(task.id)).id;
    otherSessionId = (await stack.startSession(task.id)).id;
    await putSettings({ lsp_status_location: 'status_bar', show_status_bar: true, lsp_auto_start_languages: ['typescript', 'python', 'go', 'kotlin'] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function pageFor(viewport: Viewport = 'desktop'): Promise<{ page: Page; puts: string[] }> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/api/settings')) puts.push(r.postData() ?? '');
    });
    return { page, puts };
  }

  const items = (page: Page) => page.getByTestId('status-bar-item');
  const order = async (page: Page) => await items(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-item-id')));

  it('S50 status_bar + Show status bar + fine pointer: no toolbar control, one status-bar item with the language and live summary; reordering is saved', async () => {
    const { page, puts } = await pageFor();
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    const item = statusBarLspItem(page);
    await expect.poll(() => item.getAttribute('data-state', { timeout: 1_000 }).catch(() => ''), { timeout: 60_000 }).toBe('ready');
    expect(await item.count()).toBe(1);
    expect(await item.getAttribute('data-language')).toBe('kotlin');
    expect(await item.getAttribute('data-session-id')).toBe(sessionId);
    expect(await item.innerText()).toMatch(/Kotlin\s*Ready/);
    expect(await page.getByTestId('lsp-status').count()).toBe(0);
    expect(await page.getByTestId('status-bar-file').innerText()).toBe('src/Main.kt');

    // The item opens the same details, above the bar.
    await item.click();
    expect(await lspPanel(page).getAttribute('data-placement')).toBe('above');
    expect(await lspPanel(page).getByTestId('lsp-readiness').innerText()).toBe('Ready: the server answered initialize.');
    expect(await lspPanel(page).getByTestId('lsp-stop').isVisible()).toBe(true);
    await page.keyboard.press('Escape');

    // Reorder with the keyboard: the LSP item moves to the front; the order is saved.
    expect(await order(page)).toEqual(['file', 'cursor', 'lsp']);
    await item.focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => order(page)).toEqual(['lsp', 'file', 'cursor']);
    await expect.poll(async () => (await settings()).status_bar_order).toEqual(['lsp', 'file', 'cursor']);
    expect(puts.at(-1)).toBe(JSON.stringify({ status_bar_order: ['lsp', 'file', 'cursor'] }));

    // And by drag and drop: the cursor item goes before the LSP item.
    await items(page)
      .filter({ has: page.getByTestId('status-bar-cursor') })
      .dragTo(items(page).filter({ has: statusBarLspItem(page) }));
    await expect.poll(async () => (await settings()).status_bar_order).toEqual(['cursor', 'lsp', 'file']);

    // The saved order survives a reload.
    await page.reload();
    await page.getByTestId('session-view').waitFor();
    await openFile(page, 'src/Main.kt');
    await expect.poll(() => order(page), { timeout: 60_000 }).toEqual(['cursor', 'lsp', 'file']);
    expect((await settings()).lsp_status_location).toBe('status_bar');
  });

  it('S52 the item hides for an unsupported file, an empty editor area, another route and another session, never showing another language or session', async () => {
    const { page } = await pageFor();
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    await expect.poll(() => statusBarLspItem(page).count(), { timeout: 60_000 }).toBe(1);

    await openFile(page, 'notes.txt');
    await expect.poll(() => page.getByTestId('status-bar-file').innerText()).toBe('notes.txt');
    expect(await statusBarLspItem(page).count()).toBe(0);

    await page.locator('[data-testid="editor-tab"][data-path="src/Main.kt"] .tab-label').click();
    await expect
      .poll(() =>
        statusBarLspItem(page)
          .getAttribute('data-language', { timeout: 1_000 })
          .catch(() => null),
      )
      .toBe('kotlin');

    // Another session of the same task, showing a plain text file: nothing of the first session's Kotlin.
    await page.goto(`${stack.url}/?locale=en#/sessions/${otherSessionId}`);
    await page.locator(`[data-testid="session-view"][data-session-id="${otherSessionId}"]`).waitFor();
    await openFile(page, 'notes.txt');
    await expect.poll(() => page.getByTestId('status-bar-file').innerText()).toBe('notes.txt');
    expect(await statusBarLspItem(page).count()).toBe(0);

    // No file at all (the editor area is empty) and a non-editor route: no item either.
    await page.locator('[data-testid="editor-tab"][data-path="notes.txt"] .tab-close').click();
    await expect.poll(() => page.getByTestId('status-bar-item').count()).toBe(0);
    await page.getByTestId('settings-link').click();
    await page.getByTestId('settings-page').waitFor();
    expect(await statusBarLspItem(page).count()).toBe(0);
  });

  it('S53 loading and binary surfaces of a supported filename expose no item and no inert Start or Retry until Monaco mounts', async () => {
    const { page } = await pageFor();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/sessions\/[^/]+\/file\?path=src%2FSlow\.kt$/, async (route: Route) => {
      await held;
      await route.continue();
    });
    await openSessionInLocale(page, stack.url, sessionId, 'pt-pt');
    const tree = (p: string) => page.locator(`[data-testid="tree-node"][data-path="${p}"]`);
    await tree('src').click();
    await tree('src/Slow.kt').click();
    await page.getByText('A abrir src/Slow.kt…').waitFor();
    await page.waitForTimeout(1_000);
    expect(
      await page.locator('[data-testid="lsp-statusbar-item"], [data-testid="lsp-status"], [data-testid="lsp-start"], [data-testid="lsp-retry"]').count(),
    ).toBe(0);
    release();
    await page.locator('[data-testid="editor"][data-path="src/Slow.kt"]').waitFor();
    await expect
      .poll(
        () =>
          statusBarLspItem(page)
            .getAttribute('data-language', { timeout: 1_000 })
            .catch(() => null),
        { timeout: 60_000 },
      )
      .toBe('kotlin');

    await tree('src/Blob.kt').click();
    await page.locator('[data-testid="binary-file"][data-path="src/Blob.kt"]').waitFor();
    expect(await page.getByTestId('binary-file').innerText()).toBe('src/Blob.kt parece ser um ficheiro binário, por isso não é aberto no editor.');
    expect(
      await page.locator('[data-testid="lsp-statusbar-item"], [data-testid="lsp-status"], [data-testid="lsp-start"], [data-testid="lsp-retry"]').count(),
    ).toBe(0);
    expect(await page.locator('[data-testid="editor"]').count()).toBe(0);
  });

  it('S51 with the status bar hidden, or on a coarse pointer, the toolbar control is back and the saved status_bar preference is untouched', async () => {
    await putSettings({ show_status_bar: false });
    const { page, puts } = await pageFor();
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    await openFile(page, 'src/Main.kt');
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    expect(await page.getByTestId('status-bar').count()).toBe(0);
    expect(await statusBarLspItem(page).count()).toBe(0);
    expect(await lspStatus(page, 'kotlin').getAttribute('data-surface')).toBe('popover');

    await putSettings({ show_status_bar: true });
    const tablet = await pageFor('tablet');
    await openSessionInLocale(tablet.page, stack.url, sessionId, 'zh-cn');
    await openFile(tablet.page, 'src/Main.kt');
    await waitForLspState(tablet.page, 'kotlin', 'ready', 60_000);
    expect(await lspStatus(tablet.page, 'kotlin').getAttribute('data-surface')).toBe('drawer');
    expect(await lspStatus(tablet.page, 'kotlin').getByTestId('lsp-summary-state').innerText()).toBe('就绪');
    expect(await tablet.page.getByTestId('status-bar').count()).toBe(1);
    expect(await statusBarLspItem(tablet.page).count()).toBe(0);

    expect(puts).toEqual([]);
    expect(tablet.puts).toEqual([]);
    expect((await settings()).lsp_status_location).toBe('status_bar');
  });
});
