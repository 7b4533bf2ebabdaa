import { CloseCode, type StatusFrame } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { fail, ok } from '../result.js';
import { PassThroughRelay } from './passThroughRelay.js';
import type { BrowserEndpoint, BrowserFrame, RelayConnection, UpstreamEndpoint } from './relay.js';

/** A browser socket that records what the relay did to it. */
class FakeBrowser implements BrowserEndpoint {
  readonly received: unknown[] = [];
  closedWith: number | undefined;
  paused = true;
  private frameHandler: ((frame: BrowserFrame) => void) | undefined;
  private readonly closeHandlers: ((code: number) => void)[] = [];

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }
  sendStatus(frame: StatusFrame): void {
    if (!this.isClosed) this.received.push(frame);
  }
  sendText(text: string): void {
    if (!this.isClosed) this.received.push(JSON.parse(text));
  }
  close(code: number): void {
    if (this.isClosed) return;
    this.closedWith = code;
    queueMicrotask(() => this.closeHandlers.forEach((h) => h(code)));
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  onFrame(handler: (frame: BrowserFrame) => void): void {
    this.frameHandler = handler;
  }
  onClose(handler: (code: number) => void): void {
    this.closeHandlers.push(handler);
  }
  /** The browser sends a frame. */
  send(value: Record<string, unknown>): void {
    if (this.paused) throw new Error('relay did not resume the browser');
    const frame: BrowserFrame = 'control' in value ? { kind: 'control', frame: value as never } : { kind: 'jsonrpc', text: JSON.stringify(value), message: value as never };
    this.frameHandler?.(frame);
  }
  /** The tab goes away. */
  hangUp(code: number): void {
    this.closedWith = code;
    this.closeHandlers.forEach((h) => h(code));
  }
}

class FakeUpstream implements UpstreamEndpoint {
  readonly received: Record<string, unknown>[] = [];
  closedWith: number | undefined;
  answerShutdown = true;
  private frameHandler: ((text: string) => void) | undefined;
  private readonly closeHandlers: ((code: number) => void)[] = [];

  send(text: string): void {
    const message = JSON.parse(text) as Record<string, unknown>;
    this.received.push(message);
    if (message.method === 'shutdown' && this.answerShutdown) queueMicrotask(() => this.emit({ jsonrpc: '2.0', id: message.id, result: null }));
  }
  close(code: number): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = code;
    queueMicrotask(() => this.closeHandlers.forEach((h) => h(code)));
  }
  onFrame(handler: (text: string) => void): void {
    this.frameHandler = handler;
  }
  onClose(handler: (code: number) => void): void {
    this.closeHandlers.push(handler);
  }
  emit(value: unknown): void {
    this.frameHandler?.(typeof value === 'string' ? value : JSON.stringify(value));
  }
  /** agentctl closes the stream. */
  hangUp(code: number): void {
    this.closedWith = code;
    this.closeHandlers.forEach((h) => h(code));
  }
}

const hostReady = { status: 'ready', language: 'typescript', workspaceUri: 'file:///w', workspacePath: '/w', repoSubpaths: [] };

function connect(upstream: FakeUpstream | string) {
  const browser = new FakeBrowser();
  const relay = new PassThroughRelay(silentLogger, { releaseStepTimeoutMs: 50 });
  const connection: RelayConnection = {
    request: { sessionId: 's1', language: 'typescript', leaseHint: undefined },
    openUpstream: async () => (typeof upstream === 'string' ? fail(upstream) : ok(upstream)),
  };
  const done = relay.attach(browser, connection);
  return { browser, relay, done };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('PassThroughRelay', () => {
  it('turns the host ready frame into a ready frame with a fresh lease per connection, resumed:false', async () => {
    const upstreamA = new FakeUpstream();
    const upstreamB = new FakeUpstream();
    const a = connect(upstreamA);
    const b = connect(upstreamB);
    await tick();
    upstreamA.emit(hostReady);
    upstreamB.emit(hostReady);
    const readyA = a.browser.received[0] as Record<string, unknown>;
    const readyB = b.browser.received[0] as Record<string, unknown>;
    expect(readyA).toMatchObject({ ...hostReady, resumed: false });
    expect(readyA.lease).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(readyB.lease).not.toBe(readyA.lease);
  });

  it('forwards JSON-RPC both ways and install progress frames to the browser', async () => {
    const upstream = new FakeUpstream();
    const { browser } = connect(upstream);
    await tick();
    upstream.emit({ status: 'installing', language: 'python' });
    upstream.emit({ status: 'install_failed', language: 'python', error: 'npm ERR!' });
    upstream.emit({ status: 'installed', language: 'python' });
    browser.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    upstream.emit({ jsonrpc: '2.0', id: 1, result: { capabilities: {} } });
    expect(upstream.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }]);
    expect(browser.received).toEqual([
      { status: 'installing', language: 'python' },
      { status: 'install_failed', language: 'python', error: 'npm ERR!' },
      { status: 'installed', language: 'python' },
      { jsonrpc: '2.0', id: 1, result: { capabilities: {} } },
    ]);
  });

  it.each([
    [4001, 4001],
    [4003, 4003],
    [4006, 4006],
    [4007, 4007],
    [4008, 4008],
    [1001, 1001],
    [1000, 1000],
    [1005, 4009],
    [1006, 4009],
    [1015, 4009],
    [1011, 4009],
    [4321, 4009],
  ])('mirrors an upstream close %i to the browser as %i', async (upstreamCode, browserCode) => {
    const upstream = new FakeUpstream();
    const { browser, done } = connect(upstream);
    await tick();
    upstream.hangUp(upstreamCode);
    await done;
    expect(browser.closedWith).toBe(browserCode);
  });

  it('closes 4002 when the task host stream cannot be opened', async () => {
    const { browser, done } = connect('ECONNREFUSED');
    await done;
    expect(browser.closedWith).toBe(CloseCode.Unavailable);
  });

  it('closes the upstream when the browser goes away (no detached state without a broker)', async () => {
    const upstream = new FakeUpstream();
    const { browser, done } = connect(upstream);
    await tick();
    browser.hangUp(1001);
    await done;
    expect(upstream.closedWith).toBe(CloseCode.Normal);
  });

  it('answers release with shutdown, exit, upstream close, then released and 1000', async () => {
    const upstream = new FakeUpstream();
    const { browser, done } = connect(upstream);
    await tick();
    upstream.emit(hostReady);
    browser.send({ control: 'release', reason: 'editor_idle' });
    await done;
    expect(upstream.received.map((m) => m.method)).toEqual(['shutdown', 'exit']);
    expect(upstream.closedWith).toBe(CloseCode.Normal);
    expect(browser.received.at(-1)).toEqual({ status: 'released', reason: 'editor_idle' });
    expect(browser.closedWith).toBe(CloseCode.Normal);
  });

  it('still releases when the server never answers shutdown (bounded wait)', async () => {
    const upstream = new FakeUpstream();
    upstream.answerShutdown = false;
    const { browser, done } = connect(upstream);
    await tick();
    browser.send({ control: 'release', reason: 'stop' });
    await done;
    expect(upstream.received.map((m) => m.method)).toEqual(['shutdown', 'exit']);
    expect(browser.received.at(-1)).toEqual({ status: 'released', reason: 'stop' });
    expect(browser.closedWith).toBe(1000);
  });

  it('does not forward the relay-owned shutdown answer to the browser', async () => {
    const upstream = new FakeUpstream();
    const { browser, done } = connect(upstream);
    await tick();
    browser.send({ control: 'release', reason: 'stop' });
    await done;
    expect(browser.received).toEqual([{ status: 'released', reason: 'stop' }]);
  });

  it('answers attachment-ready with synchronized', async () => {
    const upstream = new FakeUpstream();
    const { browser } = connect(upstream);
    await tick();
    browser.send({ control: 'attachment-ready' });
    expect(browser.received).toEqual([{ status: 'synchronized' }]);
    expect(upstream.received).toEqual([]);
  });

  it('treats a frame from agentctl that breaks the contract as a transport failure', async () => {
    const upstream = new FakeUpstream();
    const { browser, done } = connect(upstream);
    await tick();
    upstream.emit('not json');
    await done;
    expect(browser.closedWith).toBe(CloseCode.TransportFailure);
    expect(upstream.closedWith).toBe(1007);
  });

  it('closes both sides with 1001 on backend shutdown', async () => {
    const upstream = new FakeUpstream();
    const { browser, relay, done } = connect(upstream);
    await tick();
    await relay.shutdown();
    await done;
    expect(browser.closedWith).toBe(1001);
    expect(upstream.closedWith).toBe(1001);
  });
});
