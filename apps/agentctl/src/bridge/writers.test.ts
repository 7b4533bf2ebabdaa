import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { DeadlineSender } from './deadlineSender.js';
import { StdinWriter } from './stdinWriter.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A WebSocket whose writes complete only when the test says so. */
function slowSocket() {
  const pending: Array<(err?: Error) => void> = [];
  const ws = Object.assign(new EventEmitter(), {
    readyState: WebSocket.OPEN,
    send: (_data: string, cb: (err?: Error) => void) => pending.push(cb),
  });
  return { ws: ws as unknown as WebSocket, pending };
}

describe('WebSocket write deadline', () => {
  it('reports a peer that has not taken a frame within the deadline as stuck, once', async () => {
    vi.useFakeTimers();
    const { ws, pending } = slowSocket();
    const onStuck = vi.fn();
    const sender = new DeadlineSender(ws, 5_000, onStuck, 0);
    const first = sender.send('{"a":1}');
    const second = sender.send('{"b":2}');
    expect(sender.pending).toBe(14);
    vi.advanceTimersByTime(4_999);
    expect(onStuck).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStuck).toHaveBeenCalledTimes(1);
    expect(await first).toBe(false);
    expect(await second).toBe(false);
    // After being stuck nothing more is queued.
    expect(await sender.send('{"c":3}')).toBe(false);
    expect(pending).toHaveLength(2);
  });

  it('gives every relayed frame its own deadline, with no timer per frame', () => {
    vi.useFakeTimers();
    const { ws, pending } = slowSocket();
    const onStuck = vi.fn();
    const sender = new DeadlineSender(ws, 5_000, onStuck, 0);
    sender.relay('{"a":1}');
    vi.advanceTimersByTime(2_000);
    sender.relay('{"b":2}');
    vi.advanceTimersByTime(1_000);
    pending[0]?.(); // the first frame is written at 3 s; the second is due at 7 s
    expect(sender.pending).toBe(7);
    vi.advanceTimersByTime(3_999);
    expect(onStuck).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStuck).toHaveBeenCalledTimes(1);
    sender.relay('{"c":3}');
    expect(pending).toHaveLength(2);
  });

  it('never reports a peer that takes every frame within its deadline', () => {
    vi.useFakeTimers();
    const { ws, pending } = slowSocket();
    const onStuck = vi.fn();
    const sender = new DeadlineSender(ws, 5_000, onStuck, 0);
    for (let i = 0; i < 10; i++) {
      sender.relay(`{"n":${i}}`);
      vi.advanceTimersByTime(4_000);
      pending[i]?.();
    }
    vi.advanceTimersByTime(60_000);
    expect(onStuck).not.toHaveBeenCalled();
    expect(sender.pending).toBe(0);
  });

  it('resolves true for a written frame and wakes the producer at the low watermark', async () => {
    const { ws, pending } = slowSocket();
    const sender = new DeadlineSender(ws, 5_000, () => {}, 0);
    const sent = sender.send('{"a":1}');
    const low = vi.fn();
    sender.onceLow(low);
    expect(low).not.toHaveBeenCalled();
    pending[0]?.();
    expect(await sent).toBe(true);
    expect(low).toHaveBeenCalledTimes(1);
  });
});

describe('stdin write cutoff', () => {
  it('writes a frame as its header and its body, in order', () => {
    const chunks: Buffer[] = [];
    const stdin = new Writable({ write: (c: Buffer, _e, cb) => (chunks.push(c), cb()), writev: (cs, cb) => (chunks.push(...cs.map((c) => c.chunk as Buffer)), cb()) });
    const writer = new StdinWriter(stdin, 30_000, () => {}, () => {});
    writer.writeFrame(Buffer.from('Content-Length: 2\r\n\r\n'), Buffer.from('{}'));
    expect(Buffer.concat(chunks).toString()).toBe('Content-Length: 2\r\n\r\n{}');
  });

  it('pauses the producer on backpressure and reports a server that does not drain within the cutoff', () => {
    vi.useFakeTimers();
    const stdin = new Writable({ highWaterMark: 4, write: () => {} }); // never calls back: never drains
    const onStuck = vi.fn();
    const backpressure: boolean[] = [];
    const writer = new StdinWriter(stdin, 30_000, onStuck, (b) => backpressure.push(b));
    writer.write(new Uint8Array(16));
    expect(backpressure).toEqual([true]);
    vi.advanceTimersByTime(29_999);
    expect(onStuck).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStuck).toHaveBeenCalledTimes(1);
    writer.dispose();
  });

  it('resumes the producer and disarms the cutoff when stdin drains', () => {
    vi.useFakeTimers();
    let release: (() => void) | undefined;
    const stdin = new Writable({ highWaterMark: 4, write: (_c, _e, cb) => (release = cb) });
    const onStuck = vi.fn();
    const backpressure: boolean[] = [];
    const writer = new StdinWriter(stdin, 30_000, onStuck, (b) => backpressure.push(b));
    writer.write(new Uint8Array(16));
    release?.();
    vi.runAllTicks();
    expect(backpressure).toEqual([true, false]);
    vi.advanceTimersByTime(60_000);
    expect(onStuck).not.toHaveBeenCalled();
  });
});
