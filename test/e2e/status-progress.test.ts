/**
 * Server-reported work (S42-S48) in Chromium against the real stack. The fake language server
 * (installed as kotlin-lsp) reports work-done progress on cue: during initialize, and on the
 * document events the test causes (typing -> didChange, Ctrl+S -> didSave, hover), so every step
 * is deterministic. `once` markers make a retried or restarted server quiet, which is how stale
 * progress would show.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Action, FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { installFakeServer, readLog, writeScript } from '../support/fakeServer.js';
import { lspStatus, openFile, openLspPanel, openSessionInLocale, placeCaret, startEditorStack, waitForLspState } from '../support/page.js';
import { taskPath, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const progress = (token: string | number, value: Record<string, unknown>): Action => ({ notify: '$/progress', params: { token, value } });
const create = (token: string | number): Action => ({ request: 'window/workDoneProgress/create', params: { token } });
const SYNC = { textDocumentSync: { openClose: true, change: 2, save: { includeText: false } }, hoverProvider: true };

describe.runIf(run)('server-reported work in the status popover', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let root: string;
  let binDir: string;
  const contexts: BrowserContext[] = [];
  let n = 0;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kandev-status-progress-'));
    binDir = join(root, 'bin');
    installFakeServer(binDir, 'kotlin-lsp');
    // Its own snapshot of the built web app: a rebuild by another suite cannot swap assets mid-test.
    // These suites are about a server's final exit (4006, Retry); restarts are covered in faults-restart.
    stack = await startEditorStack({ KANDEV_LSP_RESTART_LIMIT: '0' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  async function session(script: FakeScript) {
    const id = ++n;
    const dir = join(root, `ws-${id}`);
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/Main.kt'), 'fun main() {\n    println("hello")\n}\n');
    const log = join(root, `fake-${id}.jsonl`);
    const task = await stack.createTask({
      title: `progress ${id}`,
      workspace: dir,
      env: { PATH: taskPath(binDir), FAKE_LSP_SCRIPT: writeScript(root, script), FAKE_LSP_LOG: log },
    });
    return { sessionId: (await stack.startSession(task.id)).id, log };
  }

  async function openKotlin(sessionId: string, locale = 'en'): Promise<Page> {
    const context = await newContext(browser.browser, 'desktop');
    contexts.push(context);
    const page = await context.newPage();
    await openSessionInLocale(page, stack.url, sessionId, locale);
    await openFile(page, 'src/Main.kt');
    await lspStatus(page, 'kotlin').getByTestId('lsp-start').click();
    return page;
  }

  const received = (log: string, method: string) => readLog(log).filter((l) => l.message.method === method).length;

  it('S42 initialize work (begin, report) shows the latest server text, a clamped percentage and elapsed time while initializing; S46 S47 after Stop and Start nothing stale remains', async () => {
    const marker = join(root, 'init-progress-once');
    const { sessionId } = await session({
      capabilities: SYNC,
      rules: {
        initialize: [
          {
            once: marker,
            actions: [
              progress('kandev/initialize', { kind: 'begin', title: 'Importing Gradle project', message: 'Resolving :app', percentage: 5 }),
              { delayMs: 200 },
              progress('kandev/initialize', { kind: 'report', message: 'Resolving :lib (3 of 4 modules)', percentage: 140 }),
              { delayMs: 900_000 },
            ],
          },
        ],
      },
    });
    const page = await openKotlin(sessionId);
    await waitForLspState(page, 'kotlin', 'starting', 60_000);
    const panel = await openLspPanel(page, 'kotlin');
    await expect
      .poll(
        () =>
          panel
            .getByTestId('lsp-progress-message')
            .innerText({ timeout: 1_000 })
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('Resolving :lib (3 of 4 modules)');
    expect(await panel.getByTestId('lsp-progress-title').innerText()).toBe('Importing Gradle project');
    expect(await panel.getByTestId('lsp-progress-percentage').innerText()).toBe('100%');
    expect(await panel.getByTestId('lsp-progress-elapsed').innerText()).toMatch(/^Running for \d+ seconds?$/);
    expect(await panel.getByTestId('lsp-readiness').innerText()).toBe('Server process started, waiting for initialize');
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-summary-percentage').innerText()).toBe('100%');
    expect(await panel.innerText()).not.toMatch(/remaining|ETA/i);

    // S46: stop, start again; the second server reports nothing, and nothing of the first remains.
    await panel.getByTestId('lsp-stop').click();
    await waitForLspState(page, 'kotlin', 'off', 60_000);
    expect(await panel.getByTestId('lsp-progress').count()).toBe(0);
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-summary-percentage').count()).toBe(0);
    await panel.getByTestId('lsp-start').click();
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    // S47: initialize done, no work reported: say so, and do not call it indexing.
    await expect.poll(() => panel.getByTestId('lsp-progress').getAttribute('data-kind')).toBe('none');
    expect(await panel.getByTestId('lsp-progress-none').innerText()).toBe('No background work reported: the server has not reported any ongoing analysis.');
    expect(await panel.innerText()).not.toMatch(/Importing Gradle|Resolving|index/i);
  });

  it('S42 initialize work that is still running stays visible once the connection is ready', async () => {
    const { sessionId } = await session({
      rules: {
        initialize: [
          progress('kandev/initialize', { kind: 'begin', title: 'Importing Gradle project', percentage: -20 }),
          progress('kandev/initialize', { kind: 'report', message: 'Indexing dependencies', percentage: 42.4 }),
          { respond: { capabilities: SYNC } },
        ],
      },
    });
    const page = await openKotlin(sessionId, 'zh-cn');
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    const panel = await openLspPanel(page, 'kotlin');
    await expect
      .poll(
        () =>
          panel
            .getByTestId('lsp-progress-percentage')
            .innerText({ timeout: 1_000 })
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('42%');
    expect(await panel.getByTestId('lsp-readiness').innerText()).toBe('就绪：服务器已应答 initialize。');
    expect(await panel.getByTestId('lsp-progress-message').innerText()).toBe('Indexing dependencies');
    expect(await panel.getByTestId('lsp-progress-elapsed').innerText()).toMatch(/^已运行 \d+ 秒$/);
  });

  it('S44 S43 S45 S48 two tokens: the oldest item plus the count of others; each report or end changes only its token; then work finished without an "indexed" claim', async () => {
    const { sessionId, log } = await session({
      capabilities: SYNC,
      rules: {
        initialized: [
          create(1),
          progress(1, { kind: 'begin', title: 'Scanning sources', message: 'src/', percentage: 10 }),
          { delayMs: 50 },
          create('index-b'),
          progress('index-b', { kind: 'begin', title: 'Building symbol index' }),
        ],
        'textDocument/didChange': [{ once: join(root, 'b-report'), actions: [progress('index-b', { kind: 'report', message: 'b: 3 of 7 modules' })] }],
        'textDocument/didSave': [{ once: join(root, 'end-1'), actions: [progress(1, { kind: 'end', message: 'done' })] }],
        'textDocument/hover': [progress('index-b', { kind: 'end' }), { respond: null }],
      },
    });
    const page = await openKotlin(sessionId);
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    const panel = await openLspPanel(page, 'kotlin');

    // S48: an anchored popover with readiness, project progress and the lifecycle action.
    const trigger = await lspStatus(page, 'kotlin').getByTestId('lsp-status-trigger').boundingBox();
    const box = await panel.boundingBox();
    expect(await panel.getAttribute('data-surface')).toBe('popover');
    expect(box && trigger && Math.abs(box.y - (trigger.y + trigger.height)) <= 8).toBe(true);
    expect(box && trigger && box.x <= trigger.x + trigger.width && box.x + box.width >= trigger.x).toBe(true);
    expect(await panel.getByTestId('lsp-readiness').innerText()).toBe('Ready: the server answered initialize.');
    expect(await panel.getByTestId('lsp-stop').isVisible()).toBe(true);

    // S44: two active tokens (a number and a string): the oldest plus "1 more".
    await expect
      .poll(
        () =>
          panel
            .getByTestId('lsp-progress-others')
            .innerText({ timeout: 1_000 })
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('and 1 more active work item');
    expect(await panel.getByTestId('lsp-progress-title').innerText()).toBe('Scanning sources');
    expect(await panel.getByTestId('lsp-progress-percentage').innerText()).toBe('10%');

    // A report on the other token changes only that token.
    await placeCaret(page, 'println', 0);
    await page.keyboard.type('x');
    await expect.poll(() => received(log, 'textDocument/didChange'), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(800);
    expect(await panel.getByTestId('lsp-progress-title').innerText()).toBe('Scanning sources');
    expect(await panel.getByTestId('lsp-progress-message').innerText()).toBe('src/');
    expect(await panel.getByTestId('lsp-progress-percentage').innerText()).toBe('10%');
    expect(await panel.getByTestId('lsp-progress-others').innerText()).toBe('and 1 more active work item');

    // The oldest ends: the other item (with its own report) is shown; S43 it has no percentage.
    await page.keyboard.press('Control+S');
    await expect.poll(() => panel.getByTestId('lsp-progress-title').innerText(), { timeout: 30_000 }).toBe('Building symbol index');
    expect(await panel.getByTestId('lsp-progress-message').innerText()).toBe('b: 3 of 7 modules');
    expect(await panel.getByTestId('lsp-progress-others').count()).toBe(0);
    expect(await panel.getByTestId('lsp-progress-percentage').count()).toBe(0);
    expect(await panel.getByTestId('lsp-progress-indeterminate').innerText()).toBe('In progress; the server reports no percentage.');
    expect(await panel.getByTestId('lsp-progress-elapsed').innerText()).toMatch(/^Running for \d+ seconds?$/);
    expect(await lspStatus(page, 'kotlin').getByTestId('lsp-summary-activity').count()).toBe(1);
    expect(await panel.innerText()).not.toMatch(/\d+%|remaining|ETA/i);

    // S45: the final token ends while the connection stays open.
    await placeCaret(page, 'main', 1);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    await expect.poll(() => panel.getByTestId('lsp-progress').getAttribute('data-kind'), { timeout: 30_000 }).toBe('finished');
    expect(await panel.getByTestId('lsp-progress-finished').innerText()).toBe(
      'Server-reported work finished (Building symbol index). This does not mean every cross-file reference is available.',
    );
    expect(await panel.innerText()).not.toMatch(/\bindexed\b|all references|complete/i);
    expect(await lspStatus(page, 'kotlin').getAttribute('data-state')).toBe('ready');
    expect(await panel.getByTestId('lsp-stop').isVisible()).toBe(true);
  });

  it('S46 progress of a crashed generation is gone after Retry', async () => {
    const { sessionId } = await session({
      capabilities: SYNC,
      rules: {
        initialized: [
          {
            once: join(root, 'crash-once'),
            actions: [create('c'), progress('c', { kind: 'begin', title: 'Crashing soon', percentage: 50 }), { delayMs: 1_500 }, { exit: 9 }],
          },
        ],
      },
    });
    const page = await openKotlin(sessionId);
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    const panel = await openLspPanel(page, 'kotlin');
    await expect
      .poll(
        () =>
          panel
            .getByTestId('lsp-progress-title')
            .innerText({ timeout: 1_000 })
            .catch(() => ''),
        { timeout: 30_000 },
      )
      .toBe('Crashing soon');
    await waitForLspState(page, 'kotlin', 'error', 60_000);
    expect(await panel.getByTestId('lsp-progress').count()).toBe(0);
    await panel.getByTestId('lsp-retry').click();
    await waitForLspState(page, 'kotlin', 'ready', 60_000);
    await expect.poll(() => panel.getByTestId('lsp-progress').getAttribute('data-kind')).toBe('none');
    expect(await panel.innerText()).not.toContain('Crashing soon');
  });
});
