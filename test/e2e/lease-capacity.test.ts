import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import type { Page } from 'playwright-core';
import {
  lspStatus,
  openFile,
  openLspPanel,
  openSession,
  putSettings,
  received,
  startEditorStack,
  startFakeSession,
  waitForLspState,
  witnessLspSockets,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';
import { isAlive, leaseScript, MAIN_KT, metric } from './lease-support.js';

/** Lease capacity in Chromium, with a limit of one lease (KANDEV_LSP_MAX_CONNECTIONS=1). */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const FILE = 'src/Main.kt';

// Each case has a backend of its own (room for one server each), so the two run side by side: the
// one slot and the backend-wide lease counts they read are theirs alone.
describe.runIf(run).concurrent('a backend with room for one language server', () => {
  let browser: LaunchedBrowser;
  const stacks: RunningStack[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all(stacks.map((stack) => stack.stop()));
  });

  async function roomForOne(): Promise<RunningStack> {
    const stack = await startEditorStack({ KANDEV_LSP_MAX_CONNECTIONS: '1' });
    stacks.push(stack);
    await putSettings(stack, { lsp_auto_start_languages: ['typescript', 'python', 'go', 'kotlin'] });
    return stack;
  }

  const session = (stack: RunningStack): Promise<FakeSession> =>
    startFakeSession(stack, { binary: 'kotlin-lsp', script: leaseScript, files: { [FILE]: MAIN_KT } });

  it('S27 C08 with the only lease attached another editor shows the capacity state and starts nothing; once it is detached, Retry evicts it', async ({
    expect,
  }) => {
    const stack = await roomForOne();
    const [a, b] = await Promise.all([session(stack), session(stack)]);
    const first = await (await newContext(browser.browser)).newPage();
    await openSession(first, stack.url, a.sessionId);
    await openFile(first, FILE);
    await waitForLspState(first, 'kotlin', 'ready');
    const [pidA] = [...new Set(a.log().map((l) => l.pid))];

    // S27: refused with 4005 before b's task host is asked for a server.
    const second = await (await newContext(browser.browser)).newPage();
    await openSession(second, stack.url, b.sessionId);
    await openFile(second, FILE);
    await waitForLspState(second, 'kotlin', 'error');
    await expect.poll(() => lspStatus(second, 'kotlin').innerText()).toContain('Too many language servers');
    expect(await lspStatus(second, 'kotlin').innerText()).not.toMatch(/4005|capacity/);
    expect(b.log()).toEqual([]);
    expect(await metric(stack.url, 'kandev_lsp_leases_refused_total')).toBe(1);
    expect(await lspStatus(first, 'kotlin').getAttribute('data-state')).toBe('ready');

    // C08: the first tab closes (its lease is detached, still holding the slot); Retry evicts it.
    await first.close();
    await expect.poll(() => metric(stack.url, 'kandev_lsp_leases_detached'), { timeout: 30_000 }).toBe(1);
    await (await openLspPanel(second, 'kotlin')).getByTestId('lsp-retry').click();
    await waitForLspState(second, 'kotlin', 'ready');
    await expect.poll(() => isAlive(pidA as number), { timeout: 30_000 }).toBe(false);
    expect(received(a, 'shutdown')).toHaveLength(1); // polite: shutdown (then exit) before the stream closed
    expect(received(b, 'initialize')).toHaveLength(1);
    expect(await metric(stack.url, 'kandev_lsp_leases_evicted_total')).toBe(1);
    expect(await metric(stack.url, 'kandev_lsp_leases_released_total{reason="eviction"}')).toBe(1);
    await second.close();
  });

  /** Switches the window to another session, as its link in the sidebar does. */
  async function showSession(page: Page, sessionId: string): Promise<void> {
    await page.evaluate((id) => {
      window.location.hash = `#/sessions/${id}`;
    }, sessionId);
    await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
  }

  /** What the page's visibility API reports, as a switch to another browser tab would change it. */
  async function setPageVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
    await page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { value, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  }

  it('a session left in the background (another session shown, or the page hidden) detaches its server and reattaches warm on return; when capacity runs out the window lets go of its background servers instead of refusing the editor on screen', async ({
    expect,
  }) => {
    const stack = await roomForOne();
    const [a, b] = await Promise.all([session(stack), session(stack)]);
    const page = await (await newContext(browser.browser)).newPage();
    // The background delay (60 s in the product) shortened for this window; read when a session leaves the screen.
    await page.addInitScript(() => {
      (window as any).__kandev = { ...(window as any).__kandev, backgroundDetachMs: 300 };
    });
    const sockets = await witnessLspSockets(page);
    await openSession(page, stack.url, a.sessionId);
    await openFile(page, FILE);
    await waitForLspState(page, 'kotlin', 'ready');
    const pidsA = new Set(a.log().map((l) => l.pid));
    expect(pidsA.size).toBe(1);
    const reattached = await metric(stack.url, 'kandev_lsp_leases_reattached_total');

    // Off screen past the delay: the window closes a's socket without a release; the lease is kept.
    await showSession(page, b.sessionId);
    await expect.poll(() => metric(stack.url, 'kandev_lsp_leases_detached'), { timeout: 30_000 }).toBe(1);
    expect(received(a, 'shutdown')).toEqual([]);
    expect(sockets.sent.filter((f) => f.includes('"release"'))).toEqual([]);

    // Back on screen: the same server, reattached (no second initialize, no second process).
    await showSession(page, a.sessionId);
    await waitForLspState(page, 'kotlin', 'ready');
    expect(await metric(stack.url, 'kandev_lsp_leases_reattached_total')).toBe(reattached + 1);
    expect(received(a, 'initialize')).toHaveLength(1);
    expect(new Set(a.log().map((l) => l.pid))).toEqual(pidsA);

    // A hidden page (another browser tab, a minimized window) is off screen too; visible again, it reattaches.
    await setPageVisibility(page, 'hidden');
    await expect.poll(() => metric(stack.url, 'kandev_lsp_leases_detached'), { timeout: 30_000 }).toBe(1);
    await waitForLspState(page, 'kotlin', 'detached');
    await setPageVisibility(page, 'visible');
    await waitForLspState(page, 'kotlin', 'ready');
    expect(await metric(stack.url, 'kandev_lsp_leases_reattached_total')).toBe(reattached + 2);
    expect(received(a, 'initialize')).toHaveLength(1);

    // Now a long delay: switching to b keeps a attached, so b's editor is refused (4005) at first;
    // the window then lets go of a (off screen) and asks again, and the broker evicts a for b.
    await page.evaluate(() => {
      (window as any).__kandev.backgroundDetachMs = 600_000;
    });
    const refused = await metric(stack.url, 'kandev_lsp_leases_refused_total');
    await showSession(page, b.sessionId);
    await openFile(page, FILE);
    await waitForLspState(page, 'kotlin', 'ready');
    expect(sockets.closes.map((c) => c.code)).toContain(4005);
    expect(await metric(stack.url, 'kandev_lsp_leases_refused_total')).toBe(refused + 1);
    expect(received(b, 'initialize')).toHaveLength(1);
    expect(received(a, 'shutdown')).toHaveLength(1); // evicted politely
    await expect.poll(() => isAlive([...pidsA][0] as number), { timeout: 30_000 }).toBe(false);

    // And a comes back with a fresh server once b is off screen in turn.
    await showSession(page, a.sessionId);
    await waitForLspState(page, 'kotlin', 'ready');
    expect(received(a, 'initialize')).toHaveLength(2);
    await page.close();
  });
});
