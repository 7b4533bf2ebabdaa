/**
 * Continuity rules in Chromium against the real stack (built backend, agentctl, the fake server as
 * kotlin-lsp): C09 a returning tab with a lease hint resumes after auto-start was disabled, unless
 * it explicitly stopped; C14 a lease and a browser across a backend restart show nothing stale as
 * live, and the next session starts a fresh server.
 */
import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  lspStatesSeen,
  lspStatus,
  markers,
  openFile,
  openSession,
  putSettings,
  received,
  recordLspStates,
  startFakeSession,
  waitForLspState,
  webDistSnapshot,
  witnessLspSockets,
  type FakeSession,
} from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { freePort } from '../support/ports.js';
import { FRESH, isAlive, leaseScript, MAIN_KT } from './lease-support.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const FILE = 'src/Main.kt';

const pids = (s: FakeSession) => [...new Set(s.log().map((l) => l.pid))];

describe.runIf(run)('continuity across reloads and backend restarts', () => {
  let browser: LaunchedBrowser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
  });

  async function page(): Promise<Page> {
    const context = await newContext(browser.browser, 'desktop');
    contexts.push(context);
    return context.newPage();
  }

  /** The file is shown and its status control says Off with Start offered: auto-start decided not to start. */
  async function shownOff(p: Page): Promise<void> {
    await lspStatus(p, 'kotlin').getByTestId('lsp-start').waitFor();
    expect(await lspStatus(p, 'kotlin').getAttribute('data-state')).toBe('off');
  }

  describe('C09', () => {
    let stack: RunningStack;

    beforeAll(async () => {
      stack = await startStack({ KANDEV_WEB_DIR: webDistSnapshot() });
    });

    afterAll(async () => {
      await stack?.stop();
    });

    it('C09 a reloaded tab with a lease hint resumes its lease after auto-start was disabled; a new tab without a hint stays off', async () => {
      await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
      const s = await startFakeSession(stack, { binary: 'kotlin-lsp', script: leaseScript, files: { [FILE]: MAIN_KT } });
      const tab = await page();
      const witness = await witnessLspSockets(tab);
      await openSession(tab, stack.url, s.sessionId);
      await openFile(tab, FILE);
      await waitForLspState(tab, 'kotlin', 'ready');
      const [pid] = pids(s);
      expect(witness.opened).toHaveLength(1);

      await putSettings(stack, { lsp_auto_start_languages: [] });
      await tab.reload();
      await tab.locator(`[data-testid="session-view"][data-session-id="${s.sessionId}"]`).waitFor();
      await openFile(tab, FILE);
      await waitForLspState(tab, 'kotlin', 'ready');
      // The hint routed the reload to its lease: a second socket, the same process, one initialize.
      expect(witness.opened).toHaveLength(2);
      expect(witness.opened[1]).toContain('lease=');
      expect(pids(s)).toEqual([pid]);
      expect(received(s, 'initialize')).toHaveLength(1);
      expect(witness.sent.filter((m) => m.includes('"attachment-ready"'))).toHaveLength(1);

      // A new tab has no hint: current policy (auto-start off) applies, nothing is opened.
      const other = await page();
      const otherWitness = await witnessLspSockets(other);
      await openSession(other, stack.url, s.sessionId);
      await openFile(other, FILE);
      await shownOff(other);
      expect(otherWitness.opened).toEqual([]);
    });

    it('C09 the explicit-Stop exception: a tab that stopped LSP does not resume its lease on reload', async () => {
      await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
      const s = await startFakeSession(stack, { binary: 'kotlin-lsp', script: leaseScript, files: { [FILE]: MAIN_KT } });
      const tab = await page();
      const witness = await witnessLspSockets(tab);
      await openSession(tab, stack.url, s.sessionId);
      await openFile(tab, FILE);
      await waitForLspState(tab, 'kotlin', 'ready');
      const [pid] = pids(s);

      await putSettings(stack, { lsp_auto_start_languages: [] });
      await lspStatus(tab, 'kotlin').getByTestId('lsp-stop').click();
      await waitForLspState(tab, 'kotlin', 'off');
      // Stop is acknowledged (released) only once the server's tree is reaped.
      expect(isAlive(pid as number)).toBe(false);

      await tab.reload();
      await tab.locator(`[data-testid="session-view"][data-session-id="${s.sessionId}"]`).waitFor();
      await openFile(tab, FILE);
      await shownOff(tab);
      expect(witness.opened).toHaveLength(1);
      expect(received(s, 'initialize')).toHaveLength(1);
    });
  });

  it('C14 a leased tab across a backend restart: nothing stale is shown live, and a new session starts a fresh server', async () => {
    const port = await freePort();
    const web = webDistSnapshot();
    const first = await startStack({ KANDEV_WEB_DIR: web, KANDEV_PORT: String(port) });
    let second: RunningStack | undefined;
    try {
      await putSettings(first, { lsp_auto_start_languages: ['kotlin'] });
      const s = await startFakeSession(first, { binary: 'kotlin-lsp', script: leaseScript, files: { [FILE]: MAIN_KT } });
      const tab = await page();
      const witness = await witnessLspSockets(tab);
      await recordLspStates(tab);
      await openSession(tab, first.url, s.sessionId);
      await openFile(tab, FILE);
      await waitForLspState(tab, 'kotlin', 'ready');
      const [pid] = pids(s);
      // The live server's diagnostics are shown: after the loss they must not be.
      const serverMarkers = async () => (await markers(tab, s.sessionId, FILE)).filter((m) => m.owner.startsWith('kandev-lsp.')).map((m) => m.message);
      await expect.poll(serverMarkers, { timeout: 30_000 }).toEqual([FRESH]);

      // The backend stops (SIGTERM): its leases end, its task hosts and their servers are reaped.
      const gone = new Promise((resolve) => first.process.once('exit', resolve));
      first.process.kill('SIGTERM');
      await gone;
      expect(isAlive(pid as number)).toBe(false);
      // The page notices the loss (its socket closes); from then on every state it shows is kept.
      await expect.poll(() => lspStatus(tab, 'kotlin').getAttribute('data-state'), { timeout: 30_000 }).not.toBe('ready');
      // The ended server's diagnostics went with it: none stays on the file as if still current.
      expect(await serverMarkers()).toEqual([]);
      const statesBefore = (await lspStatesSeen(tab)).length;
      const framesBefore = witness.received.length;

      // The same KANDEV_HOME and port: the page's next socket reaches the new backend.
      second = await startStack({ KANDEV_WEB_DIR: web, KANDEV_PORT: String(port), KANDEV_HOME: first.home });
      // The old session is stopped now: whatever the tab's hint names cannot be live again.
      expect((await second.api<{ status: string }>(`/api/sessions/${s.sessionId}`)).status).not.toBe('running');
      await expect.poll(() => lspStatus(tab, 'kotlin').getAttribute('data-state'), { timeout: 60_000 }).toMatch(/^(off|unavailable|error)$/);
      expect(isAlive(pid as number)).toBe(false);

      // Every state shown and every frame received between the loss and the new session: none
      // of them says the old lease is live (not only the last one, which a poll would read).
      const shownMeanwhile = (await lspStatesSeen(tab)).slice(statesBefore);
      expect(shownMeanwhile).not.toContain('kotlin:ready');
      const readyMeanwhile = witness.received.slice(framesBefore).filter(({ frame }) => /"status":"(ready|synchronized)"/.test(frame));
      expect(readyMeanwhile).toEqual([]);
      expect(await serverMarkers()).toEqual([]);

      const next = await second.startSession(s.taskId);
      await openSession(tab, second.url, next.id);
      await openFile(tab, FILE);
      await waitForLspState(tab, 'kotlin', 'ready');
      const initializes = received(s, 'initialize');
      expect(initializes).toHaveLength(2);
      expect(pids(s)).toHaveLength(2);
      // The tab asked the new backend with its old hint at most for the old session, never got it live.
      expect(witness.opened.filter((u) => u.includes(next.id))).toHaveLength(1);
    } finally {
      await second?.stop();
      if (first.process.exitCode === null && first.process.signalCode === null) await first.stop();
      rmSync(first.home, { recursive: true, force: true });
    }
  });
});
