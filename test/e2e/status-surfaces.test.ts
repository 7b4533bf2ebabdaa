/**
 * The status surfaces on each device class, in Chromium against the real stack: the desktop
 * popover and the coarse-pointer tablet drawer with server text that has no break points (S49,
 * S54), and the phone viewer that never starts or attaches a server (S58). Widths are measured
 * (scrollWidth against clientWidth), not eyeballed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Action } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { installFakeServer, readLog, writeKotlinWorkspace, writeScript } from '../support/fakeServer.js';
import {
  documentOverflowsHorizontally,
  horizontalOverflow,
  lspStatus,
  openFile,
  openLspPanel,
  openSessionInLocale,
  startEditorStack,
  waitForLspState,
} from '../support/page.js';
import { taskPath, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const LONG_IDENTIFIER = `org.example.${'VeryLongGeneratedIdentifierWithoutAnyBreakOpportunity'.repeat(6)}`;
const LONG_URL = `https://repo.maven.example.org/maven2/${'a'.repeat(90)}/very-long-artifact-name-without-break-points-${'x'.repeat(160)}.jar`;
const LONG_PATH = `/workspace/${'deeply-nested-folder-name'.repeat(10)}/Main.kt`;
const progress = (token: string, value: Record<string, unknown>): Action => ({ notify: '$/progress', params: { token, value } });

describe.runIf(run)('status popover, tablet drawer and phone viewer', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let root: string;
  let sessionId: string;
  let log: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kandev-status-surfaces-'));
    const binDir = join(root, 'bin');
    installFakeServer(binDir, 'kotlin-lsp');
    const ws = writeKotlinWorkspace(join(root, 'ws'), { 'src/util.ts': 'export const x: number = 1;\n' });
    log = join(root, 'fake.jsonl');
    const script = writeScript(root, {
      capabilities: { textDocumentSync: 1 },
      rules: {
        initialized: [
          { request: 'window/workDoneProgress/create', params: { token: 'long' } },
          progress('long', { kind: 'begin', title: LONG_IDENTIFIER, message: `Downloading ${LONG_URL} into ${LONG_PATH}`, percentage: 37 }),
        ],
      },
    });
    // Its own snapshot of the built web app: a rebuild by another suite cannot swap assets mid-test.
    stack = await startEditorStack();
    const task = await stack.createTask({ title: 'surfaces', workspace: ws, env: { PATH: taskPath(binDir), FAKE_LSP_SCRIPT: script, FAKE_LSP_LOG: log } });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function pageFor(viewport: Viewport): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    return context.newPage();
  }

  async function expectFullTextWrapped(page: Page, panelSelector: string): Promise<void> {
    const panel = page.locator(panelSelector);
    await expect
      .poll(
        () =>
          panel
            .getByTestId('lsp-progress-title')
            .innerText({ timeout: 1_000 })
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe(LONG_IDENTIFIER);
    // The whole text is there (no truncation) ...
    expect(await panel.getByTestId('lsp-progress-message').innerText()).toBe(`Downloading ${LONG_URL} into ${LONG_PATH}`);
    // ... and nothing inside the surface is wider than its box (no clipping, no sideways scrolling).
    expect(await horizontalOverflow(page, panelSelector)).toEqual([]);
    const box = (await panel.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const message = (await panel.getByTestId('lsp-progress-message').boundingBox())!;
    expect(message.width).toBeLessThanOrEqual(box.width);
    expect(message.height).toBeGreaterThan(40); // it wrapped onto several lines
    expect(await panel.evaluate((el) => getComputedStyle(el.querySelector('[data-testid="lsp-progress-message"]')!).overflowWrap)).toBe('anywhere');
    expect(await documentOverflowsHorizontally(page)).toBe(false);
  }

  it('S49 S48 desktop popover: a long URL, path and identifier wrap inside it, in full, with no horizontal overflow', async () => {
    const page = await pageFor('desktop');
    await openSessionInLocale(page, stack.url, sessionId, 'en');
    expect(await page.getByTestId('session-view').getAttribute('data-form-factor')).toBe('desktop');
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    const panel = await openLspPanel(page, 'kotlin');
    expect(await panel.getAttribute('data-surface')).toBe('popover');
    await expectFullTextWrapped(page, '[data-testid="lsp-status-panel"]');
    expect(await panel.getByTestId('lsp-progress-percentage').innerText()).toBe('37%');
    // Escape closes it and gives focus back to the trigger.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('lsp-status-trigger');
  });

  it('S54 S49 coarse-pointer tablet: a touch-sized trigger opens an inset bottom drawer with the same progress and action, no horizontal overflow (pt-pt)', async () => {
    const page = await pageFor('tablet');
    await openSessionInLocale(page, stack.url, sessionId, 'pt-pt');
    expect(await page.getByTestId('session-view').getAttribute('data-form-factor')).toBe('tablet');
    await openFile(page, 'src/Main.kt');
    const status = lspStatus(page, 'kotlin');
    if ((await status.getAttribute('data-state')) === 'off') await status.getByTestId('lsp-start').tap();
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    expect(await status.getAttribute('data-surface')).toBe('drawer');

    const trigger = (await status.getByTestId('lsp-status-trigger').boundingBox())!;
    expect(trigger.height).toBeGreaterThanOrEqual(44);
    expect(trigger.width).toBeGreaterThanOrEqual(44);
    const stop = (await status.getByTestId('lsp-stop').boundingBox())!;
    expect(stop.height).toBeGreaterThanOrEqual(44);

    const panel = await openLspPanel(page, 'kotlin', 'tap');
    expect(await panel.getAttribute('data-surface')).toBe('drawer');
    const box = (await panel.boundingBox())!;
    const viewport = page.viewportSize()!;
    // Inset: a margin on both sides and at the bottom, anchored to the bottom edge.
    expect(box.x).toBeGreaterThanOrEqual(4);
    expect(viewport.width - (box.x + box.width)).toBeGreaterThanOrEqual(4);
    expect(viewport.height - (box.y + box.height)).toBeGreaterThanOrEqual(4);
    expect(viewport.height - (box.y + box.height)).toBeLessThanOrEqual(24);
    await expectFullTextWrapped(page, '[data-testid="lsp-status-panel"]');
    expect(await panel.getByTestId('lsp-readiness').innerText()).toBe('Pronto: o servidor respondeu a initialize.');
    expect(await panel.getByTestId('lsp-progress-percentage').innerText()).toBe('37 %');
    const drawerStop = (await panel.getByTestId('lsp-stop').boundingBox())!;
    expect(drawerStop.height).toBeGreaterThanOrEqual(44);
    expect(await panel.getByTestId('lsp-stop').innerText()).toBe('Parar');
    const close = (await panel.getByTestId('lsp-panel-close').boundingBox())!;
    expect(Math.min(close.width, close.height)).toBeGreaterThanOrEqual(44);
    // Tapping the backdrop closes it.
    await page.getByTestId('lsp-drawer-backdrop').tap({ position: { x: 20, y: 20 } });
    await expect.poll(() => panel.count()).toBe(0);
    expect(await documentOverflowsHorizontally(page)).toBe(false);
  });

  it('S58 a phone shows the plain viewer and never starts or attaches a language server (the fake server log stays empty)', async () => {
    // Auto-start Kotlin and TypeScript for everyone: a desktop would start both on open.
    await stack.api('/api/settings', { method: 'PUT', body: { lsp_auto_start_languages: ['typescript', 'kotlin'] } });
    const phoneRoot = join(root, 'phone');
    const binDir = join(phoneRoot, 'bin');
    installFakeServer(binDir, 'kotlin-lsp');
    const ws = join(phoneRoot, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src/Main.kt'), 'fun main() {}\n');
    writeFileSync(join(ws, 'src/util.ts'), 'export const x = 1;\n');
    const phoneLog = join(phoneRoot, 'fake.jsonl');
    const task = await stack.createTask({
      title: 'phone',
      workspace: ws,
      env: { PATH: taskPath(binDir), FAKE_LSP_SCRIPT: writeScript(phoneRoot, {}), FAKE_LSP_LOG: phoneLog },
    });
    const phoneSession = (await stack.startSession(task.id)).id;

    const page = await pageFor('phone');
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await openSessionInLocale(page, stack.url, phoneSession, 'zh-cn');
    expect(await page.getByTestId('session-view').getAttribute('data-form-factor')).toBe('phone');
    await openFile(page, 'src/Main.kt');
    expect(await page.getByTestId('editor').getAttribute('data-readonly')).toBe('true');
    await page.getByText('fun main() {}').waitFor();
    // The phone viewer covers the lists; Back to files brings the tree back for the next file.
    await page.locator('[data-testid="phone-back"]').click();
    await openFile(page, 'src/util.ts');
    await page.waitForTimeout(3_000);
    expect(readLog(phoneLog)).toEqual([]);
    expect(sockets.filter((u) => u.includes('/lsp/'))).toEqual([]);
    expect(await page.locator('[data-testid="lsp-status"], [data-testid="lsp-statusbar-item"], [data-testid="lsp-start"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__kandev)).toBeUndefined();
    expect(await page.getByText('只读查看器').count()).toBe(1);
    expect(await documentOverflowsHorizontally(page)).toBe(false);
    // The same task on a desktop does start Kotlin: the phone's silence is the viewer's doing.
    const desktop = await pageFor('desktop');
    await openSessionInLocale(desktop, stack.url, phoneSession, 'en');
    await openFile(desktop, 'src/Main.kt');
    await waitForLspState(desktop, 'kotlin', 'ready', 60_000);
    expect(readLog(phoneLog).some((l) => l.message.method === 'initialize')).toBe(true);
    await stack.api('/api/settings', { method: 'PUT', body: { lsp_auto_start_languages: ['typescript', 'python', 'go'] } });
  });
});
