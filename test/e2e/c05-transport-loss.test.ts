import type { Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  hoverRows,
  lspStatesSeen,
  lspStatus,
  openFile,
  openSession,
  placeCaret,
  putSettings,
  received,
  recordLspStates,
  runEditorAction,
  startFakeSession,
  waitForLspState,
  webDistSnapshot,
} from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { startTcpProxy, type ProxiedConnection, type TcpProxy } from '../support/tcpProxy.js';
import { HOVER, leaseScript, MAIN_KT } from './lease-support.js';

/**
 * C05 over a real transport loss: the page reaches the backend through a TCP proxy the test owns,
 * which resets the browser's /lsp connection (no close frame) and leaves the backend's side open
 * and silent. The backend's pings are set far apart so it cannot notice on its own before the
 * tab's reconnect arrives: the reconnect, carrying its lease hint, meets a lease the backend still
 * believes attached, and the backend must probe that holder, find it dead and resume the lease.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');
const FILE = 'src/Main.kt';
const isLsp = (url: string) => /\/lsp\//.test(url);

describe.runIf(run)('C05 over a real transport loss', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let proxy: TcpProxy | undefined;

  beforeAll(async () => {
    stack = await startStack({ KANDEV_WEB_DIR: webDistSnapshot(), KANDEV_LSP_PING_INTERVAL_MS: '600000' });
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await proxy?.close();
    await browser?.close();
    await stack?.stop();
  });

  /** Frames the backend sent on one /lsp socket, parsed, and the moment its `ready` frame came. */
  function record(ws: WebSocket): { frames: Array<Record<string, any>>; ready: Promise<Record<string, any>> } {
    const frames: Array<Record<string, any>> = [];
    let readyNow!: (frame: Record<string, any>) => void;
    let refused!: (error: Error) => void;
    const ready = new Promise<Record<string, any>>((resolve, reject) => {
      readyNow = resolve;
      refused = reject;
    });
    // A socket the backend closes before `ready` (4005, a new lease's failure) fails the wait at
    // once, with what it said, instead of leaving the test to time out.
    ws.on('close', () => refused(new Error(`/lsp socket closed before ready: ${JSON.stringify(frames)}`)));
    ws.on('framereceived', ({ payload }) => {
      let frame: Record<string, any>;
      try {
        frame = JSON.parse(String(payload)) as Record<string, any>;
      } catch {
        return; // not a JSON frame: not ours to judge here
      }
      frames.push(frame);
      if (frame.status === 'ready') readyNow(frame);
    });
    return { frames, ready };
  }

  /** Fails with `what` (and what the page showed) if `promise` has not settled in `ms`: a hang guard, not a timing assertion. */
  async function within<T>(page: Page, promise: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => {
      timer = setTimeout(() => void lspStatesSeen(page).then((states) => reject(new Error(`never saw ${what}; states: ${states.join(', ')}`)), reject), ms);
    });
    try {
      return await Promise.race([promise, hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function hover(page: Page): Promise<void> {
    await placeCaret(page, 'greeting', 2);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(() => hoverRows(page), { timeout: 30_000 }).toContain(HOVER);
  }

  it('C05 a TCP cut without a close frame, racing the half-open backend socket, shows reconnecting and resumes the same server', async () => {
    const s = await startFakeSession(stack, { binary: 'kotlin-lsp', script: leaseScript, files: { [FILE]: MAIN_KT } });
    proxy = await startTcpProxy(stack.url);
    const page = await (await newContext(browser.browser)).newPage();
    await recordLspStates(page);
    // Frames are recorded from the moment each socket exists, so none slips past.
    const sockets: WebSocket[] = [];
    const recorded = new Map<WebSocket, ReturnType<typeof record>>();
    page.on('websocket', (ws) => {
      if (!isLsp(ws.url())) return;
      sockets.push(ws);
      recorded.set(ws, record(ws));
    });

    await openSession(page, proxy.url, s.sessionId);
    const firstSocket = page.waitForEvent('websocket', { predicate: (ws) => isLsp(ws.url()) });
    await openFile(page, FILE);
    const first = await firstSocket;
    const firstFrames = recorded.get(first)!.frames;
    await waitForLspState(page, 'kotlin', 'ready');
    const pids = () => [...new Set(s.log().map((l) => l.pid))];
    const [pid] = pids();
    expect(received(s, 'initialize')).toHaveLength(1);

    const lspLinks = () => proxy!.connections.filter((c) => c.upgrade && isLsp(c.requestLine ?? ''));
    expect(lspLinks()).toHaveLength(1);
    const cutLink = lspLinks()[0] as ProxiedConnection;

    const reconnect = page.waitForEvent('websocket', { predicate: (ws) => isLsp(ws.url()), timeout: 60_000 });
    proxy.cut(cutLink);
    const second = await within(page, reconnect, 60_000, 'a reconnecting /lsp socket');
    const secondFrames = recorded.get(second)!.frames;
    // The race the scenario is about: the reconnect reached the proxy while the backend still held
    // the old, half-open socket (its pings are too far apart to have noticed).
    await expect.poll(() => lspLinks().length, { timeout: 30_000 }).toBe(2);
    expect(cutLink.upstream.destroyed).toBe(false);

    await within(page, recorded.get(second)!.ready, 60_000, 'a ready frame on the reconnected socket');
    await waitForLspState(page, 'kotlin', 'ready');
    // The backend ended the dead holder itself (its probe went unanswered), not the proxy.
    if (!cutLink.upstream.destroyed) {
      await within(page, new Promise((resolve) => cutLink.upstream.once('close', resolve)), 60_000, 'the backend end the half-open socket');
    }

    const states = await lspStatesSeen(page);
    expect(states.slice(states.lastIndexOf('kotlin:ready', states.length - 2))).toContain('kotlin:reconnecting');
    expect(states).not.toContain('kotlin:error');
    expect(states).not.toContain('kotlin:exited');
    expect(sockets.map((ws) => ws.url())).toHaveLength(2);
    expect(sockets[0]!.url()).not.toMatch(/[?&]lease=/);
    const lease = firstFrames.find((f) => f.status === 'ready')?.lease as string;
    expect(lease).toEqual(expect.any(String));
    expect(new URL(second.url()).searchParams.get('lease')).toBe(lease);
    expect(firstFrames.filter((f) => f.status === 'ready').map((f) => f.resumed)).toEqual([false]);
    expect(secondFrames.filter((f) => f.status === 'ready')).toEqual([expect.objectContaining({ resumed: true, lease })]);
    // Nothing on the new socket reported a server exit or a capacity refusal.
    expect(secondFrames.some((f) => f.status === 'exited' || f.status === 'error')).toBe(false);
    expect(received(s, 'initialize')).toHaveLength(1);
    expect(received(s, 'shutdown')).toEqual([]);
    expect(pids()).toEqual([pid]);
    expect(await lspStatus(page, 'kotlin').innerText()).not.toMatch(/stopped unexpectedly|exited/i);

    await hover(page);
    expect(
      s
        .log()
        .filter((l) => l.message.method === 'textDocument/hover')
        .map((l) => l.pid),
    ).toEqual([pid]);
    await page.context().close();
  });
});
