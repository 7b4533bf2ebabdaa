import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StdinWriter } from './stdinWriter.js';

afterEach(() => {
  vi.useRealTimers();
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
