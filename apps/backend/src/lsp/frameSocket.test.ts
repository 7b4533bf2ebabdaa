import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserSocket } from './browserSocket.js';
import { FrameSocket, TERMINATED, type WsLike } from './frameSocket.js';

/** A `ws` stand-in: writes complete only when the test says so (a stuck peer never drains). */
class FakeWs extends EventEmitter implements WsLike {
  readonly pendingCallbacks: ((err?: Error) => void)[] = [];
  readonly sent: string[] = [];
  closeCalls: [number | undefined, string | undefined][] = [];
  terminated = false;
  paused = false;
  send(data: string, cb: (err?: Error) => void): void {
    this.sent.push(data);
    this.pendingCallbacks.push(cb);
  }
  drainOne(): void {
    this.pendingCallbacks.shift()?.();
  }
  close(code?: number, reason?: string): void {
    this.closeCalls.push([code, reason]);
  }
  terminate(): void {
    this.terminated = true;
    queueMicrotask(() => this.emit('close', 1006));
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  text(value: string): void {
    this.emit('message', Buffer.from(value), false);
  }
  /** false: a half-open peer that never answers. */
  answersPings = true;
  ping(): void {
    if (this.answersPings) queueMicrotask(() => this.emit('pong'));
  }
}

afterEach(() => vi.useRealTimers());

describe('FrameSocket write deadline', () => {
  it('terminates a peer whose writes make no progress for the deadline', () => {
    vi.useFakeTimers();
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, 5_000);
    socket.send('a');
    socket.send('b');
    vi.advanceTimersByTime(4_999);
    expect(ws.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(ws.terminated).toBe(true);
  });

  it('tells its write-timeout listeners before terminating, so they may choose the recorded close code', async () => {
    vi.useFakeTimers();
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, 5_000);
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    socket.onWriteTimeout(() => socket.close(4009));
    socket.send('a');
    vi.advanceTimersByTime(5_000);
    expect(ws.closeCalls).toEqual([[4009, undefined]]);
    expect(ws.terminated).toBe(true);
    await vi.runAllTimersAsync();
    expect(codes).toEqual([4009]);
  });

  it('restarts the deadline on progress and disarms it once everything drained', () => {
    vi.useFakeTimers();
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, 5_000);
    socket.send('a');
    socket.send('b');
    vi.advanceTimersByTime(4_000);
    ws.drainOne();
    vi.advanceTimersByTime(4_000);
    expect(ws.terminated).toBe(false);
    ws.drainOne();
    vi.advanceTimersByTime(60_000);
    expect(ws.terminated).toBe(false);
  });

  it('reports the close once, with the code we sent rather than the echo', async () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws);
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    socket.close(4004, 'executor_unsupported');
    socket.close(1000);
    ws.emit('close', 1005);
    ws.emit('close', 1000);
    expect(ws.closeCalls).toEqual([[4004, 'executor_unsupported']]);
    expect(codes).toEqual([4004]);
  });

  it('calls every close listener once (gateway metrics and relay both listen)', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws);
    const seen: string[] = [];
    socket.onClose((code) => seen.push(`gateway:${code}`));
    socket.onClose((code) => seen.push(`relay:${code}`));
    ws.emit('close', 1001);
    socket.onClose((code) => seen.push(`late:${code}`));
    expect(seen).toEqual(['gateway:1001', 'relay:1001', 'late:1001']);
  });

  it('resumes reading when closing a paused socket, so the peer close reply is read', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws);
    const got: unknown[] = [];
    socket.onText((f) => got.push(f));
    socket.pause();
    ws.text('held');
    socket.close(4002, 'unknown_session');
    expect(ws.paused).toBe(false);
    expect(got).toEqual([]);
  });

  it('records the 1009 ws sent for an oversized frame, not the 1006 of its close event', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws);
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    ws.emit('error', Object.assign(new RangeError('Max payload size exceeded'), { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' }));
    ws.emit('close', 1006);
    expect(codes).toEqual([1009]);
  });

  it('records a terminated stuck peer as 1006', async () => {
    vi.useFakeTimers();
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, 10);
    const codes: number[] = [];
    socket.onClose((code) => codes.push(code));
    socket.send('x');
    vi.advanceTimersByTime(10);
    await vi.runAllTimersAsync();
    expect(codes).toEqual([TERMINATED]);
  });

  it('holds frames while paused and delivers them in order on resume', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws);
    const got: unknown[] = [];
    socket.pause();
    socket.onText((f) => got.push(f));
    ws.text('1');
    ws.text('2');
    expect(got).toEqual([]);
    socket.resume();
    ws.text('3');
    expect(got).toEqual([{ text: '1' }, { text: '2' }, { text: '3' }]);
  });
});

describe('BrowserSocket frame rules', () => {
  function browser() {
    const ws = new FakeWs();
    const socket = new BrowserSocket(ws);
    const frames: Array<Parameters<Parameters<BrowserSocket['onFrame']>[0]>[0]> = [];
    socket.onFrame((f) => frames.push(f));
    socket.resume();
    return { ws, socket, frames };
  }

  it('passes JSON-RPC messages and control frames on', () => {
    const { ws, frames } = browser();
    ws.text('{"jsonrpc":"2.0","id":1,"method":"initialize"}');
    ws.text('{"control":"release","reason":"stop"}');
    expect(frames).toEqual([
      {
        kind: 'jsonrpc', text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}', message: { jsonrpc: '2.0', id: 1, method: 'initialize' },
        raw: { text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}', idSpan: [22, 23] },
      },
      { kind: 'control', frame: { control: 'release', reason: 'stop' } },
    ]);
  });

  it('keeps the text for relaying only when its envelope is unambiguous', () => {
    const { ws, frames } = browser();
    ws.text('{"jsonrpc":"2.0","method":"m","params":{"id":7}}');
    ws.text('{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}');
    ws.text('{"jsonrpc":"2.0","\\u0069d":1,"method":"a"}');
    ws.text('{"jsonrpc":"2.0","id":{"x":1},"method":"a"}');
    expect(frames.map((f) => (f.kind === 'jsonrpc' ? f.raw : 'control'))).toEqual([
      { text: '{"jsonrpc":"2.0","method":"m","params":{"id":7}}' },
      undefined,
      undefined,
      { text: '{"jsonrpc":"2.0","id":{"x":1},"method":"a"}' },
    ]);
  });

  it.each([
    ['not JSON', 'hello'],
    ['a JSON array', '[{"jsonrpc":"2.0"}]'],
    ['a JSON string', '"x"'],
    ['an unknown object', '{"foo":1}'],
    ['a status frame', '{"status":"ready"}'],
  ])('closes 1007 on %s and forwards nothing', (_label, text) => {
    const { ws, frames } = browser();
    ws.text(text);
    ws.text('{"jsonrpc":"2.0","method":"after"}');
    expect(ws.closeCalls[0]?.[0]).toBe(1007);
    expect(frames).toEqual([]);
  });

  it('closes 1007 on a binary frame', () => {
    const { ws, frames } = browser();
    ws.emit('message', Buffer.from('{}'), true);
    expect(ws.closeCalls[0]?.[0]).toBe(1007);
    expect(frames).toEqual([]);
  });

  it('holds frames until a relay resumes it', () => {
    const ws = new FakeWs();
    const socket = new BrowserSocket(ws);
    ws.text('{"jsonrpc":"2.0","method":"early"}');
    const frames: unknown[] = [];
    socket.onFrame((f) => frames.push(f));
    expect(frames).toEqual([]);
    socket.resume();
    expect(frames).toHaveLength(1);
  });
});

describe('FrameSocket liveness probe', () => {
  it('is true when the peer answers the ping, false when a half-open peer stays silent', async () => {
    const live = new FakeWs();
    expect(await new FrameSocket(live).probe(1_000)).toBe(true);
    vi.useFakeTimers();
    const silent = new FakeWs();
    silent.answersPings = false;
    const probing = new FrameSocket(silent).probe(1_000);
    vi.advanceTimersByTime(1_000);
    expect(await probing).toBe(false);
    expect(silent.listenerCount('pong')).toBe(0);
  });
});

describe('FrameSocket byte watermarks', () => {
  it('reports full above the high watermark, and drained at the low one', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, { highWatermarkBytes: 10, lowWatermarkBytes: 4 });
    const states: boolean[] = [];
    socket.onBackpressure((full) => states.push(full));
    socket.send('12345');
    socket.send('12345');
    expect(states).toEqual([]);
    socket.send('1');
    expect(states).toEqual([true]);
    expect(socket.bufferedBytes).toBe(11);
    ws.drainOne();
    expect(states).toEqual([true]);
    ws.drainOne();
    expect(states).toEqual([true, false]);
  });

  it('a socket closed while full reports drained, so nothing stays held for it', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, { highWatermarkBytes: 1, lowWatermarkBytes: 0 });
    const states: boolean[] = [];
    socket.onBackpressure((full) => states.push(full));
    socket.send('xx');
    ws.emit('close', 1006);
    expect(states).toEqual([true, false]);
  });

  it('a pause for backpressure and the owner pause are independent', () => {
    const ws = new FakeWs();
    const socket = new FrameSocket(ws);
    const got: unknown[] = [];
    socket.onText((f) => got.push(f));
    socket.pause('backpressure');
    socket.pause('owner');
    ws.text('1');
    socket.resume('backpressure');
    expect(got).toEqual([]);
    expect(ws.paused).toBe(true);
    socket.resume('owner');
    expect(got).toEqual([{ text: '1' }]);
    expect(ws.paused).toBe(false);
  });
});

describe('FrameSocket keepalive', () => {
  it('a peer that answers pings stays; one that stops answering is dead after the misses and terminated', async () => {
    vi.useFakeTimers();
    const ws = new FakeWs();
    const socket = new FrameSocket(ws, { keepalive: { intervalMs: 100, maxMisses: 2 } });
    const dead: string[] = [];
    socket.onDead(() => dead.push('dead'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dead).toEqual([]);
    ws.answersPings = false;
    await vi.advanceTimersByTimeAsync(100); // first unanswered ping goes out
    await vi.advanceTimersByTimeAsync(100); // miss 1
    expect(dead).toEqual([]);
    await vi.advanceTimersByTimeAsync(100); // miss 2
    expect(dead).toEqual(['dead']);
    expect(ws.terminated).toBe(true);
  });

  it('any frame from the peer counts as an answer, and a socket we paused is never judged', async () => {
    vi.useFakeTimers();
    const ws = new FakeWs();
    ws.answersPings = false;
    const socket = new FrameSocket(ws, { keepalive: { intervalMs: 100, maxMisses: 2 } });
    socket.onText(() => undefined);
    const dead: string[] = [];
    socket.onDead(() => dead.push('dead'));
    for (let i = 0; i < 10; i++) {
      ws.text('{}');
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(dead).toEqual([]);
    socket.pause('backpressure');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(dead).toEqual([]);
  });
});

describe('BrowserSocket nesting bound', () => {
  const deep = '['.repeat(4_500) + ']'.repeat(4_500);

  it('answers a too-deep request at once, drops a too-deep notification, passes a too-deep response on as an error; stays open', () => {
    const ws = new FakeWs();
    const refused: string[] = [];
    const socket = new BrowserSocket(ws, { onRefused: (kind) => refused.push(kind) });
    const frames: unknown[] = [];
    socket.onFrame((f) => frames.push(f));
    socket.resume();
    ws.text(`{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":${deep}}`);
    ws.text(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":${deep}}`);
    ws.text(`{"jsonrpc":"2.0","id":"srv-3","result":${deep}}`);
    expect(JSON.parse(ws.sent[0] as string)).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringContaining('256') } });
    expect(frames).toEqual([{ kind: 'jsonrpc', text: expect.any(String), message: expect.objectContaining({ id: 'srv-3', error: expect.objectContaining({ code: -32600 }) }) }]);
    expect(refused).toEqual(['request', 'notification', 'response']);
    expect(ws.closeCalls).toEqual([]);
    expect(socket.isClosed).toBe(false);
  });
});
