import { type Disposable, ManualClock, toDisposable } from '@kandev/kit';
import { DEFAULT_SETTINGS, type StatusFrame, type UserSettings } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../base/log.js';
import { fail, ok, type Result } from '../base/result.js';
import { BrokerRuntime } from './brokerRuntime.js';
import type { BrowserEndpoint, BrowserFrame, UpstreamEndpoint, UpstreamTarget } from './relay.js';

/** The wiring around the broker, with fake sockets and a manual clock: effects really happen. */

/** Adds `handler` to `list`; disposing takes it out again. */
function listen<T>(list: T[], handler: T): Disposable {
  list.push(handler);
  return toDisposable(() => {
    const at = list.indexOf(handler);
    if (at >= 0) list.splice(at, 1);
  });
}

/** Backpressure as both endpoints have it: the runtime throttles reading, tests report a full queue. */
class FakeBackpressure {
  readonly backpressureHandlers: ((full: boolean) => void)[] = [];
  throttled = false;

  throttle(blocked: boolean): void {
    this.throttled = blocked;
  }
  onBackpressure(handler: (full: boolean) => void): Disposable {
    return listen(this.backpressureHandlers, handler);
  }
  /** The outgoing queue crossed a watermark. */
  full(value: boolean): void {
    for (const h of this.backpressureHandlers) h(value);
  }
}

class FakeBrowser extends FakeBackpressure implements BrowserEndpoint {
  readonly sent: Record<string, unknown>[] = [];
  closedWith: number | undefined;
  paused = true;
  /** false: the network died under this socket; it answers no ping and no close arrives. */
  answersPings = true;
  /** true: a ping neither answers nor fails; only the broker's probe deadline decides. */
  pingHangs = false;
  probes = 0;
  private frameHandler?: (frame: BrowserFrame) => void;
  private readonly closeHandlers: ((code: number) => void)[] = [];
  private readonly timeoutHandlers: (() => void)[] = [];

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }
  sendStatus(frame: StatusFrame): void {
    this.sent.push(frame as unknown as Record<string, unknown>);
  }
  sendText(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(code: number): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    for (const h of this.closeHandlers) h(code);
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  probe(): Promise<boolean> {
    this.probes += 1;
    if (this.pingHangs) return new Promise<boolean>(() => undefined);
    return Promise.resolve(this.answersPings && !this.isClosed);
  }
  terminate(): void {
    this.close(1006);
  }
  onFrame(handler: (frame: BrowserFrame) => void): Disposable {
    this.frameHandler = handler;
    return toDisposable(() => {
      if (this.frameHandler === handler) this.frameHandler = undefined;
    });
  }
  onClose(handler: (code: number) => void): Disposable {
    return listen(this.closeHandlers, handler);
  }
  onWriteTimeout(handler: () => void): Disposable {
    return listen(this.timeoutHandlers, handler);
  }
  /** The tab went away (or the network did). */
  drop(code = 1001): void {
    this.close(code);
  }
  stuck(): void {
    for (const h of this.timeoutHandlers) h();
  }
  rpc(message: Record<string, unknown>): void {
    this.frameHandler?.({ kind: 'jsonrpc', text: JSON.stringify(message), message: { jsonrpc: '2.0', ...message } });
  }
  control(frame: { control: 'attachment-ready' } | { control: 'release'; reason: 'stop' | 'editor_idle' }): void {
    this.frameHandler?.({ kind: 'control', frame });
  }
  statuses(): string[] {
    return this.sent.filter((f) => 'status' in f).map((f) => String(f.status));
  }
}

class FakeUpstream extends FakeBackpressure implements UpstreamEndpoint {
  readonly received: Record<string, unknown>[] = [];
  closedWith: number | undefined;
  private frameHandler?: (text: string) => void;
  private readonly closeHandlers: ((code: number) => void)[] = [];
  /** false: agentctl never completes a close asked for (a hung reap); only the drain bound ends the wait. */
  completesClose = true;

  emitText(text: string): void {
    this.frameHandler?.(text);
  }
  readonly controls: string[] = [];

  send(text: string): void {
    const frame = JSON.parse(text) as Record<string, unknown>;
    if (typeof frame.control !== 'string') {
      this.received.push(frame);
      return;
    }
    this.controls.push(frame.control);
    // As agentctl: release-stream -> reap the tree -> `reaped` -> close 1000.
    if (frame.control === 'release-stream') {
      queueMicrotask(() => {
        this.emit({ status: 'reaped', clean: true });
        this.hostClosed(1000);
      });
    }
  }
  close(code: number): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    if (!this.completesClose) return;
    // agentctl completes the close once it reaped the server; here at once.
    queueMicrotask(() => this.closeHandlers.forEach((h) => h(code)));
  }
  onFrame(handler: (text: string) => void): Disposable {
    this.frameHandler = handler;
    return toDisposable(() => {
      if (this.frameHandler === handler) this.frameHandler = undefined;
    });
  }
  onClose(handler: (code: number) => void): Disposable {
    return listen(this.closeHandlers, handler);
  }
  emit(frame: Record<string, unknown>): void {
    this.frameHandler?.(JSON.stringify(frame));
  }
  /** agentctl closed the stream on its own (server exit, teardown). */
  hostClosed(code: number): void {
    this.closedWith = code;
    this.closeHandlers.forEach((h) => h(code));
  }
  methods(): string[] {
    return this.received.map((m) => String(m.method ?? 'response'));
  }
}

const READY = { status: 'ready', language: 'go', workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: [] };
const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup(options: { maxLeases?: number; refuse?: boolean; settings?: UserSettings } = {}) {
  const clock = new ManualClock();
  const upstreams: FakeUpstream[] = [];
  const targets: UpstreamTarget[] = [];
  const logLines: Record<string, unknown>[] = [];
  let settings = options.settings ?? DEFAULT_SETTINGS;
  let leaseNo = 0;
  const runtime = new BrokerRuntime({
    maxLeases: options.maxLeases ?? 8,
    clock,
    newLeaseId: () => `lease-${++leaseNo}`,
    settings: () => settings,
    log: createLogger({ targets: [{ lines: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>) }] }),
    openUpstream: async (target): Promise<Result<UpstreamEndpoint, string>> => {
      targets.push(target);
      if (options.refuse) return fail('connection refused');
      const upstream = new FakeUpstream();
      upstreams.push(upstream);
      return ok(upstream);
    },
  });
  const connect = (hint?: string) => {
    const browser = new FakeBrowser();
    runtime.attach(browser, { sessionId: 's1', language: 'go', leaseHint: hint });
    return browser;
  };
  /** A browser through ready, initialize and initialized on a new lease. */
  const readyLease = async () => {
    const browser = connect();
    await flush();
    const upstream = upstreams.at(-1) as FakeUpstream;
    upstream.emit(READY);
    browser.rpc({ id: 1, method: 'initialize', params: { capabilities: {} } });
    const init = upstream.received.find((m) => m.method === 'initialize') as { id: number };
    upstream.emit({ jsonrpc: '2.0', id: init.id, result: { capabilities: { hoverProvider: true } } });
    browser.rpc({ method: 'initialized', params: {} });
    return { browser, upstream };
  };
  return {
    runtime,
    clock,
    upstreams,
    targets,
    logLines,
    connect,
    readyLease,
    setSettings: (next: UserSettings) => {
      settings = next;
      runtime.settingsChanged(next);
    },
  };
}

describe('BrokerRuntime: the broker wired to sockets, timers and pins', () => {
  it('C01 a closed tab detaches: the stream stays open, the task host stays pinned, and a hint resumes it', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    expect(t.runtime.pins.isPinned('s1')).toBe(true);
    browser.drop();
    expect(upstream.closedWith).toBeUndefined();
    expect(t.runtime.metrics()).toMatchObject({ active: 0, detached: 1 });
    expect(t.runtime.pins.isPinned('s1')).toBe(true);
    const ready = browser.sent.find((f) => f.status === 'ready') as { lease: string };
    const back = t.connect(ready.lease);
    expect(back.sent[0]).toMatchObject({ status: 'ready', resumed: true, lease: ready.lease, initializeResult: { capabilities: { hoverProvider: true } } });
    expect(back.paused).toBe(false);
    expect(t.upstreams).toHaveLength(1);
    expect(upstream.methods().filter((m) => m === 'initialize')).toHaveLength(1);
  });

  it('C05 a reconnect whose old socket is half-open (no pong) terminates it and resumes its own lease', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    const lease = (browser.sent.find((f) => f.status === 'ready') as { lease: string }).lease;
    browser.answersPings = false; // the tab's network died; the backend never saw a close
    const back = t.connect(lease);
    expect(back.sent).toEqual([]); // held while the holder is asked
    await flush();
    expect(browser.closedWith).toBe(1006);
    expect(back.sent[0]).toMatchObject({ status: 'ready', resumed: true, lease });
    expect(t.upstreams).toHaveLength(1);
    expect(upstream.methods().filter((m) => m === 'initialize')).toHaveLength(1);
  });

  it("C05 a holder whose ping hangs is dropped at the broker's probe deadline on the injected clock", async () => {
    const t = setup();
    const { browser } = await t.readyLease();
    const lease = (browser.sent.find((f) => f.status === 'ready') as { lease: string }).lease;
    browser.pingHangs = true;
    const back = t.connect(lease);
    await flush();
    t.clock.advance(2_999);
    expect(browser.closedWith).toBeUndefined();
    expect(back.paused).toBe(true);
    t.clock.advance(1);
    expect(browser.closedWith).toBe(1006);
    expect(back.sent[0]).toMatchObject({ status: 'ready', resumed: true, lease });
    expect(back.paused).toBe(false);
  });

  it('C10 a duplicated tab whose copied hint names a live attached lease gets its own lease; the original is untouched', async () => {
    const t = setup();
    const { browser } = await t.readyLease();
    const lease = (browser.sent.find((f) => f.status === 'ready') as { lease: string }).lease;
    const duplicate = t.connect(lease);
    await flush();
    expect(browser.probes).toBe(1);
    expect(browser.closedWith).toBeUndefined();
    expect(duplicate.sent).toEqual([]); // its own lease is still starting
    expect(t.upstreams).toHaveLength(2);
    t.upstreams[1]?.emit(READY);
    expect(duplicate.sent[0]).toMatchObject({ status: 'ready', resumed: false });
    expect((duplicate.sent[0] as { lease: string }).lease).not.toBe(lease);
    // A hint naming a detached lease needs no probe.
    const other = await t.readyLease();
    other.browser.drop();
    const otherLease = (other.browser.sent.find((f) => f.status === 'ready') as { lease: string }).lease;
    expect(t.connect(otherLease).sent[0]).toMatchObject({ status: 'ready', resumed: true, lease: otherLease });
  });

  it('autoInstall comes from the settings, never the browser; a saved change reaches the live server (S23)', async () => {
    const t = setup({ settings: { ...DEFAULT_SETTINGS, lsp_auto_install_languages: ['go'] } });
    const { upstream } = await t.readyLease();
    expect(t.targets).toEqual([{ sessionId: 's1', language: 'go', autoInstall: true, trustWorkspaceTools: false }]);
    t.setSettings({ ...DEFAULT_SETTINGS, lsp_server_configs: { go: { gopls: { staticcheck: true } } } });
    expect(upstream.received.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'workspace/didChangeConfiguration',
      params: { settings: { gopls: { staticcheck: true } } },
    });
    upstream.emit({ jsonrpc: '2.0', id: 'cfg', method: 'workspace/configuration', params: { items: [{ section: 'gopls' }] } });
    expect(upstream.received.at(-1)).toEqual({ jsonrpc: '2.0', id: 'cfg', result: [{ staticcheck: true }] });
  });

  it('C07 the one-hour deadline runs on the injected clock: expiry shuts the server down and unpins', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    browser.drop();
    t.clock.advance(59 * 60_000);
    expect(upstream.methods()).not.toContain('shutdown');
    t.clock.advance(60_000);
    expect(upstream.methods()).toContain('shutdown');
    expect(t.runtime.pins.isPinned('s1')).toBe(false);
    const shutdown = upstream.received.find((m) => m.method === 'shutdown') as { id: number };
    upstream.emit({ jsonrpc: '2.0', id: shutdown.id, result: null });
    expect(upstream.methods().at(-1)).toBe('exit');
    expect(upstream.controls).toEqual(['release-stream']);
    await flush();
    expect(upstream.closedWith).toBe(1000);
    expect(t.runtime.leases()).toEqual([]);
    expect(t.runtime.metrics().releasedTotal.expiry).toBe(1);
    expect(t.logLines.map((l) => l.event)).toContain('lease_expiry');
  });

  it('C07 a reattach before the deadline cancels it', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    browser.drop();
    t.clock.advance(30 * 60_000);
    t.connect();
    t.clock.advance(2 * 60 * 60_000);
    expect(upstream.methods()).not.toContain('shutdown');
    expect(t.runtime.metrics()).toMatchObject({ active: 1, detached: 0 });
  });

  it('a browser that cannot take a write within the deadline is detached with 4009, the server untouched', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    browser.stuck();
    expect(browser.closedWith).toBe(4009);
    expect(upstream.closedWith).toBeUndefined();
    expect(t.runtime.metrics()).toMatchObject({ detached: 1 });
    expect(t.logLines.find((l) => l.event === 'lease_detach')).toMatchObject({ reason: 'write_timeout', language: 'go' });
  });

  it('S27 at capacity with every lease attached the socket closes 4005 and nothing is opened', async () => {
    const t = setup({ maxLeases: 1 });
    await t.readyLease();
    const second = t.connect();
    expect(second.closedWith).toBe(4005);
    await flush();
    expect(t.targets).toHaveLength(1);
    expect(t.runtime.metrics().refusedAtCapacityTotal).toBe(1);
  });

  it('C08 at capacity the oldest detached lease is evicted before the new stream is opened', async () => {
    const t = setup({ maxLeases: 1 });
    const first = await t.readyLease();
    first.browser.drop();
    const other = new FakeBrowser();
    t.runtime.attach(other, { sessionId: 's2', language: 'go', leaseHint: undefined });
    expect(first.upstream.methods()).toContain('shutdown');
    expect(t.runtime.pins.isPinned('s1')).toBe(false);
    expect(t.runtime.pins.isPinned('s2')).toBe(true);
    await flush();
    expect(t.targets.map((x) => x.sessionId)).toEqual(['s1', 's2']);
    expect(t.runtime.metrics().evictedTotal).toBe(1);
  });

  it('an unreachable task host closes the browser 4002 and gives the slot back', async () => {
    const t = setup({ refuse: true, maxLeases: 1 });
    const browser = t.connect();
    await flush();
    expect(browser.closedWith).toBe(4002);
    expect(t.runtime.pins.isPinned('s1')).toBe(false);
    expect(t.runtime.metrics()).toMatchObject({ leases: 0, releasedTotal: expect.objectContaining({ task_host_unavailable: 1 }) });
    expect(t.logLines.find((l) => l.event === 'lsp_upstream_failed')).toMatchObject({ language: 'go', detail: 'connection refused' });
  });

  it('a lease released while its stream is still opening closes the stream once it exists', async () => {
    const t = setup();
    const browser = t.connect();
    browser.control({ control: 'release', reason: 'stop' });
    await flush();
    expect(t.upstreams[0]?.closedWith).toBe(1000);
    await flush();
    expect(browser.statuses()).toEqual(['released']);
    expect(browser.closedWith).toBe(1000);
  });

  it('agentctl codes pass through; a dead transport becomes 4009, never a reserved code', async () => {
    const t = setup();
    const a = t.connect();
    await flush();
    (t.upstreams.at(-1) as FakeUpstream).emit(READY);
    // launched, never initialized: a crash now is not restarted, agentctl's 4006 passes through
    (t.upstreams.at(-1) as FakeUpstream).hostClosed(4006);
    expect(a.closedWith).toBe(4006);
    const b = await t.readyLease();
    b.upstream.hostClosed(1006);
    expect(b.browser.closedWith).toBe(4009);
  });

  it("a crashed initialized server is restarted on the injected clock: restarting, a new stream after the backoff, the broker's initialize, ready resumed", async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    upstream.emit({ status: 'server_exited', language: 'go', stderrTail: 'panic: boom' });
    upstream.hostClosed(4006);
    expect(browser.closedWith).toBeUndefined();
    expect(browser.statuses()).toEqual(['ready', 'restarting']);
    expect(t.runtime.pins.isPinned('s1')).toBe(true);
    t.clock.advance(999);
    await flush();
    expect(t.upstreams).toHaveLength(1);
    t.clock.advance(1);
    await flush();
    expect(t.upstreams).toHaveLength(2);
    const next = t.upstreams[1] as FakeUpstream;
    next.emit(READY);
    const init = next.received.find((m) => m.method === 'initialize') as { id: number; params: unknown };
    expect(init.params).toEqual({ capabilities: {} });
    next.emit({ jsonrpc: '2.0', id: init.id, result: { capabilities: { hoverProvider: true } } });
    expect(next.methods()).toEqual(['initialize', 'initialized']);
    expect(browser.statuses()).toEqual(['ready', 'restarting', 'ready']);
  });

  it('session stop ends its leases: the stream closes 1001, the browser 4002, the pin goes', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    t.runtime.sessionStopped('s1');
    expect(upstream.closedWith).toBe(1001);
    expect(browser.closedWith).toBe(4002);
    expect(t.runtime.pins.isPinned('s1')).toBe(false);
  });

  it('shutdown ends every lease, waits for the streams to close, and refuses later connections with 1001', async () => {
    const t = setup();
    const attached = await t.readyLease();
    const detached = await t.readyLease();
    detached.browser.drop();
    await t.runtime.shutdown();
    expect(attached.upstream.closedWith).toBe(1001);
    expect(detached.upstream.closedWith).toBe(1001);
    expect(attached.browser.closedWith).toBe(1001);
    expect(t.runtime.metrics()).toMatchObject({ leases: 0, releasedTotal: expect.objectContaining({ shutdown: 2 }) });
    expect(t.clock.pending).toBe(0);
    expect(t.connect().closedWith).toBe(1001);
  });

  it('shutdown stops waiting for a stream whose close never completes at the drain bound on the injected clock', async () => {
    const t = setup();
    const { upstream } = await t.readyLease();
    upstream.completesClose = false;
    let settled = false;
    const stopping = t.runtime.shutdown().then(() => (settled = true));
    await flush();
    expect(upstream.closedWith).toBe(1001);
    t.clock.advance(4_999);
    await flush();
    expect(settled).toBe(false);
    t.clock.advance(1);
    await stopping;
    expect(settled).toBe(true);
    expect(t.clock.pending).toBe(0);
  });

  it('logs carry the event, a reason from the closed set and the language, never an id', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    browser.control({ control: 'release', reason: 'stop' });
    const shutdown = upstream.received.find((m) => m.method === 'shutdown') as { id: number };
    upstream.emit({ jsonrpc: '2.0', id: shutdown.id, result: null });
    await flush();
    expect(browser.statuses()).toEqual(['ready', 'released']);
    const leaseLines = t.logLines.filter((l) => String(l.event).startsWith('lease_'));
    expect(leaseLines.map((l) => `${String(l.event)}/${String(l.reason)}`)).toEqual([
      'lease_create/new_lease',
      'lease_attach/new_lease',
      'lease_release/stop',
      'lease_exit/reaped',
    ]);
    for (const line of leaseLines) expect(Object.keys(line).sort()).toEqual(['event', 'language', 'level', 'reason', 'time']);
  });
});

describe('BrokerRuntime: bounded memory and bounded parsing', () => {
  it('a browser above its byte watermark stops its upstream from being read; below it, or closed, reading resumes', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    browser.full(true);
    expect(upstream.throttled).toBe(true);
    browser.full(false);
    expect(upstream.throttled).toBe(false);
    browser.full(true);
    browser.drop(); // a real socket reports `false` on close; the lease's upstream must not stay held
    browser.full(false);
    expect(upstream.throttled).toBe(false);
  });

  it('an upstream above its byte watermark stops the attached browser from being read', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    upstream.full(true);
    expect(browser.throttled).toBe(true);
    upstream.full(false);
    expect(browser.throttled).toBe(false);
  });

  it('a server request nested too deep is answered upstream; a too-deep response ends its browser request with the bound', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    upstream.emitText(`{"jsonrpc":"2.0","id":"srv-1","method":"workspace/configuration","params":${deep}}`);
    expect(upstream.received.at(-1)).toMatchObject({ id: 'srv-1', error: { code: -32600, message: expect.stringContaining('256') } });
    browser.rpc({ id: 9, method: 'textDocument/hover', params: {} });
    const hover = upstream.received.find((m) => m.method === 'textDocument/hover') as { id: number };
    upstream.emitText(`{"jsonrpc":"2.0","id":${hover.id},"result":${deep}}`);
    expect(browser.sent.at(-1)).toMatchObject({ id: 9, error: { code: -32600 } });
    upstream.emitText(`{"jsonrpc":"2.0","method":"window/logMessage","params":${deep}}`);
    expect(browser.sent.at(-1)).toMatchObject({ id: 9 });
    expect(t.logLines.filter((l) => l.event === 'lsp_frame_refused').map((l) => l.kind)).toEqual(['request', 'response', 'notification']);
    expect(t.runtime.leases()[0]).toMatchObject({ pendingRequests: 0 });
  });
});

describe('BrokerRuntime: a browser that keeps its backlog', () => {
  it('is detached (4009) when its upstream stayed unread for the hold time; the lease and its stream stay', async () => {
    const t = setup();
    const { browser, upstream } = await t.readyLease();
    browser.full(true);
    t.clock.advance(2_499);
    expect(browser.closedWith).toBeUndefined();
    t.clock.advance(1);
    expect(browser.closedWith).toBe(4009);
    expect(upstream.closedWith).toBeUndefined();
    expect(t.runtime.metrics()).toMatchObject({ active: 0, detached: 1 });
  });
});
