import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  hoverRows,
  lspStatesSeen,
  lspStatus,
  openFile,
  openLspPanel,
  openSession,
  placeCaret,
  putSettings,
  received,
  recordLspStates,
  runEditorAction,
  startFakeSession,
  waitForLspState,
  webDistSnapshot,
  type FakeSession,
} from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { duplicateSessionStorage, FRESH, HOVER, isAlive, leaseScript, MAIN_KT, markerMessages, metric, proxyLspSockets, UNSAVED } from './lease-support.js';

/**
 * Leases in Chromium: the real web client against the real backend (built bundle), agentctl and
 * the fake server installed as kotlin-lsp. The server's log is the witness of what it received,
 * its pid of which process it was.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const FILE = 'src/Main.kt';

describe.runIf(run)('leases that outlive a browser tab', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    stack = await startStack({ KANDEV_WEB_DIR: webDistSnapshot() });
    await putSettings(stack, { lsp_auto_start_languages: ['typescript', 'python', 'go', 'kotlin'] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function window(viewport: 'desktop' | 'tablet' | 'phone' = 'desktop'): Promise<BrowserContext> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    return context;
  }

  async function session(script = leaseScript): Promise<FakeSession> {
    return startFakeSession(stack, { binary: 'kotlin-lsp', script, files: { [FILE]: MAIN_KT } });
  }

  async function openReady(page: Page, s: FakeSession): Promise<void> {
    await openSession(page, stack.url, s.sessionId);
    await openFile(page, FILE);
    await waitForLspState(page, 'kotlin', 'ready');
  }

  async function hover(page: Page): Promise<string> {
    await placeCaret(page, 'greeting', 2);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(() => hoverRows(page), { timeout: 30_000 }).toContain(HOVER);
    return HOVER;
  }

  const pids = (s: FakeSession) => [...new Set(s.log().map((l) => l.pid))];
  /** The pid of the process that received the n-th initialize. */
  const initializedBy = (s: FakeSession, n: number) => s.log().filter((l) => l.message.method === 'initialize')[n]?.pid;

  it('C01 C02 C03 a closed tab leaves its server running; a reopened tab resumes the same process and shows only fresh diagnostics', async () => {
    const s = await session();
    const context = await window();
    const first = await context.newPage();
    await openReady(first, s);
    await expect.poll(markerMessages(first, s.sessionId, FILE), { timeout: 30_000 }).toContain(FRESH);
    // An unsaved edit: the server analyses the buffer and reports an error in it.
    await placeCaret(first, 'println', 0);
    await first.keyboard.type('x');
    await expect.poll(markerMessages(first, s.sessionId, FILE), { timeout: 30_000 }).toContain(UNSAVED);
    const [pid] = pids(s);

    await first.close();
    // C01: detached, not interrupted. The broker closed the document; the process lives on.
    await expect.poll(() => received(s, 'textDocument/didClose').length, { timeout: 30_000 }).toBe(1);
    expect(isAlive(pid as number)).toBe(true);
    expect(received(s, 'shutdown')).toEqual([]);

    // C02: a new tab (no hint in its sessionStorage) claims the most recently detached lease.
    const again = await context.newPage();
    const proxy = await proxyLspSockets(again);
    await openReady(again, s);
    expect(proxy.received.find((f) => f.status === 'ready')).toMatchObject({ resumed: true, initializeResult: { capabilities: { hoverProvider: true } } });
    expect(proxy.received.some((f) => f.status === 'synchronized')).toBe(true);
    // C03: the persisted contents were reopened and analysed afresh; the unsaved buffer's error never shows.
    await expect.poll(markerMessages(again, s.sessionId, FILE), { timeout: 30_000 }).toContain(FRESH);
    expect(await markerMessages(again, s.sessionId, FILE)()).not.toContain(UNSAVED);
    expect(JSON.stringify(proxy.received)).not.toContain(UNSAVED);
    const opens = received(s, 'textDocument/didOpen').map((m) => m.params.textDocument);
    expect(opens.map((d) => d.version)).toEqual([1, 3]); // 2 was the unsaved edit: versions only grow
    expect(opens[1].text).toBe(MAIN_KT);
    expect(received(s, 'initialize')).toHaveLength(1);
    expect(pids(s)).toEqual([pid]);
    // Providers came back from the retained capabilities.
    expect(await hover(again)).toBe(HOVER);
    await again.close();
  });

  it('C04 C10 two windows and a duplicated tab each get their own lease; closing or stopping one leaves the others working', async () => {
    const s = await session();
    const windowA = await (await window()).newPage();
    await openReady(windowA, s);
    const windowB = await (await window()).newPage();
    await openReady(windowB, s);
    // C10: the duplicate carries A's hint, but A's lease is attached: it gets its own.
    const duplicate = await windowA.context().newPage();
    const copied = await duplicateSessionStorage(windowA, duplicate);
    expect(Object.keys(copied).some((k) => k.startsWith('kandev.lsp.lease.'))).toBe(true);
    const proxy = await proxyLspSockets(duplicate);
    await openReady(duplicate, s);
    const hint = Object.entries(copied).find(([k]) => k.startsWith('kandev.lsp.lease.'))?.[1] as string;
    expect(proxy.opened[0]).toContain(`lease=${hint}`);
    expect(proxy.received.find((f) => f.status === 'ready')).toMatchObject({ resumed: false });
    expect(proxy.received.find((f) => f.status === 'ready')?.lease).not.toBe(hint);
    expect(received(s, 'initialize')).toHaveLength(3);
    const [pidA, pidB, pidDup] = [0, 1, 2].map((n) => initializedBy(s, n) as number) as [number, number, number];
    expect(new Set([pidA, pidB, pidDup]).size).toBe(3);
    expect(await lspStatus(windowA, 'kotlin').getAttribute('data-state')).toBe('ready');

    // C04: B's tab closes (detach only), the duplicate explicitly stops (released and reaped).
    await windowB.close();
    await (await openLspPanel(duplicate, 'kotlin')).getByTestId('lsp-stop').click();
    await waitForLspState(duplicate, 'kotlin', 'off');
    // Off follows `released`, which the broker sends only once agentctl reported the tree reaped.
    expect(isAlive(pidDup)).toBe(false);
    expect(isAlive(pidB)).toBe(true);
    expect(isAlive(pidA)).toBe(true);
    // A kept its process, providers and diagnostics.
    expect(await hover(windowA)).toBe(HOVER);
    expect(await markerMessages(windowA, s.sessionId, FILE)()).toContain(FRESH);
    expect(await lspStatus(windowA, 'kotlin').getAttribute('data-state')).toBe('ready');
    expect(
      s
        .log()
        .filter((l) => l.message.method === 'textDocument/hover')
        .every((l) => l.pid === pidA),
    ).toBe(true);
    await windowA.close();
    await duplicate.close();
  });

  it('C05 a network cut shows reconnecting and reattaches to the same server, never reporting a server exit', async () => {
    const s = await session();
    const page = await (await window()).newPage();
    await recordLspStates(page);
    const proxy = await proxyLspSockets(page);
    await openReady(page, s);
    const [pid] = pids(s);
    const detachedBefore = await metric(stack.url, 'kandev_lsp_leases_detached');

    await proxy.cut(async () => {
      await expect.poll(() => metric(stack.url, 'kandev_lsp_leases_detached'), { timeout: 30_000 }).toBe(detachedBefore + 1);
    });
    await waitForLspState(page, 'kotlin', 'ready');
    const states = await lspStatesSeen(page);
    expect(states.slice(states.lastIndexOf('kotlin:ready', states.length - 2))).toContain('kotlin:reconnecting');
    expect(states).not.toContain('kotlin:error');
    expect(proxy.opened).toHaveLength(2);
    expect(proxy.opened[1]).toMatch(/[?&]lease=/);
    expect(proxy.received.filter((f) => f.status === 'ready').map((f) => f.resumed)).toEqual([false, true]);
    expect(received(s, 'initialize')).toHaveLength(1);
    expect(pids(s)).toEqual([pid]);
    expect(await lspStatus(page, 'kotlin').innerText()).not.toMatch(/stopped unexpectedly|exited/i);
    expect(await hover(page)).toBe(HOVER);
    await page.close();
  });

  it('S23 C12 JSON saved in Editors settings reaches the live server, attached or detached, without another server', async () => {
    const s = await session();
    const context = await window();
    const editor = await context.newPage();
    await openReady(editor, s);
    const settings = await context.newPage();
    await settings.goto(`${stack.url}/#/settings`);
    const card = settings.locator('[data-testid="language-card"][data-language="kotlin"]');
    const saveConfig = async (json: string) => {
      await card.getByTestId('lsp-config-input').fill(json);
      await card.getByTestId('lsp-config-save').click();
      await card.getByTestId('lsp-config-saved').waitFor();
    };
    /** What the server got back for its own workspace/configuration requests (answered by the broker). */
    const answers = () =>
      s
        .log()
        .map((l) => l.message)
        .filter((m) => m.method === undefined && String(m.id).startsWith('fake-'))
        .map((m) => m.result);

    // S23: attached.
    await saveConfig('{"kotlin": {"inlayHints": true}}');
    await expect
      .poll(() => received(s, 'workspace/didChangeConfiguration').map((m) => m.params), { timeout: 30_000 })
      .toEqual([{ settings: { kotlin: { inlayHints: true } } }]);
    await expect.poll(answers, { timeout: 30_000 }).toEqual([[{ inlayHints: true }]]);
    expect(await lspStatus(editor, 'kotlin').getAttribute('data-state')).toBe('ready');

    // C12: detached (the editor tab closed), then a return.
    await editor.close();
    await expect.poll(() => received(s, 'textDocument/didClose').length, { timeout: 30_000 }).toBe(1);
    await saveConfig('{"kotlin": {"inlayHints": false}}');
    await expect.poll(() => received(s, 'workspace/didChangeConfiguration').length, { timeout: 30_000 }).toBe(2);
    await expect.poll(answers, { timeout: 30_000 }).toEqual([[{ inlayHints: true }], [{ inlayHints: false }]]);
    const back = await context.newPage();
    await openReady(back, s);
    expect(received(s, 'initialize')).toHaveLength(1);
    expect(pids(s)).toHaveLength(1);
    await putSettings(stack, { lsp_server_configs: { kotlin: null } });
    await back.close();
    await settings.close();
  });

  it('C15 a phone viewer leaves a detached lease alone; a tablet editor reattaches it and uses its drawer', async () => {
    const s = await session();
    const desktop = await (await window()).newPage();
    await openReady(desktop, s);
    await desktop.close();
    await expect.poll(() => received(s, 'textDocument/didClose').length, { timeout: 30_000 }).toBe(1);
    const reattachedBefore = await metric(stack.url, 'kandev_lsp_leases_reattached_total');

    const phone = await (await window('phone')).newPage();
    const sockets: string[] = [];
    phone.on('websocket', (ws) => sockets.push(ws.url()));
    await openSession(phone, stack.url, s.sessionId);
    await openFile(phone, FILE);
    await phone.getByText('val greeting').first().waitFor();
    // Nothing to wait for can prove an absence; give an auto-start the time it would need.
    await phone.waitForTimeout(2_000);
    expect(sockets.filter((u) => u.includes('/lsp/'))).toEqual([]);
    expect(await metric(stack.url, 'kandev_lsp_leases_reattached_total')).toBe(reattachedBefore);
    expect(received(s, 'textDocument/didOpen')).toHaveLength(1);

    const tablet = await (await window('tablet')).newPage();
    const proxy = await proxyLspSockets(tablet);
    await openReady(tablet, s);
    expect(proxy.received.find((f) => f.status === 'ready')).toMatchObject({ resumed: true });
    expect(await metric(stack.url, 'kandev_lsp_leases_reattached_total')).toBe(reattachedBefore + 1);
    const drawer = await openLspPanel(tablet, 'kotlin', 'tap');
    expect(await drawer.getByTestId('lsp-stop').isVisible()).toBe(true);
    expect(received(s, 'initialize')).toHaveLength(1);
    await phone.close();
    await tablet.close();
  });

  it('C06 the last editor closed for two minutes releases the lease (page clock); a tab closed before that only detaches', async () => {
    // The server takes its time over shutdown, so the release is surely still on its way when the
    // file is opened again below.
    const s = await session({ ...leaseScript, rules: { ...leaseScript.rules, shutdown: [{ delayMs: 1500 }] } });
    const page = await (await window()).newPage();
    await page.clock.install();
    await openReady(page, s);
    const [pid] = pids(s);
    const closeEditor = () => page.locator(`[data-testid="editor-tab"][data-path="${FILE}"] .tab-close`).click();
    await closeEditor();
    await page.clock.fastForward('01:50');
    await expect.poll(() => received(s, 'textDocument/didClose').length, { timeout: 30_000 }).toBe(1);
    expect(received(s, 'shutdown')).toEqual([]);
    const idleBefore = await metric(stack.url, 'kandev_lsp_leases_released_total{reason="editor_idle"}');
    await page.clock.fastForward('00:15');
    // Reopened at once, while the release is still on its way (the broker is shutting the server
    // down): the lease still ends, and a new server starts once it has (this race left Kotlin Off).
    await openFile(page, FILE);
    expect(await lspStatus(page, 'kotlin').getAttribute('data-state')).toBe('stopping');
    await expect.poll(() => received(s, 'shutdown').length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => isAlive(pid as number), { timeout: 30_000 }).toBe(false);
    expect(await metric(stack.url, 'kandev_lsp_leases_released_total{reason="editor_idle"}')).toBe(idleBefore + 1);

    // Then the browser tab closes before the idle timer: detach only.
    await waitForLspState(page, 'kotlin', 'ready');
    const [, second] = pids(s);
    await closeEditor();
    await page.clock.fastForward('01:00');
    const detachedBefore = await metric(stack.url, 'kandev_lsp_leases_detached');
    await page.close();
    await expect.poll(() => metric(stack.url, 'kandev_lsp_leases_detached'), { timeout: 30_000 }).toBe(detachedBefore + 1);
    expect(received(s, 'shutdown')).toHaveLength(1);
    expect(isAlive(second as number)).toBe(true);
  });

  it('C14 after the task host stops nothing stale is shown live, and the next session starts a fresh server', async () => {
    const s = await session();
    const page = await (await window()).newPage();
    const proxy = await proxyLspSockets(page);
    await openReady(page, s);
    const [pid] = pids(s);

    await stack.api(`/api/sessions/${s.sessionId}/stop`, { method: 'POST', body: {} });
    await expect.poll(() => lspStatus(page, 'kotlin').getAttribute('data-state'), { timeout: 30_000 }).not.toBe('ready');
    expect(isAlive(pid as number)).toBe(false);

    const next = await stack.startSession(s.taskId);
    await openSession(page, stack.url, next.id);
    await openFile(page, FILE);
    await waitForLspState(page, 'kotlin', 'ready');
    const readies = proxy.received.filter((f) => f.status === 'ready');
    expect(readies.map((f) => f.resumed)).toEqual([false, false]);
    expect(readies[1]?.lease).not.toBe(readies[0]?.lease);
    expect(received(s, 'initialize')).toHaveLength(2);
    expect(initializedBy(s, 1)).not.toBe(pid);
    await expect.poll(markerMessages(page, next.id, FILE), { timeout: 30_000 }).toContain(FRESH);
    await page.close();
  });
});
