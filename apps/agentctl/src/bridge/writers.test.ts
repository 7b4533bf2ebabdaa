import { Writable } from 'node:stream';
import { ManualClock } from '@kandev/kit';
import { describe, expect, it, vi } from 'vitest';
import { StdinWriter } from './stdinWriter.js';

describe('stdin write cutoff', () => {
  it('writes a frame as its header and its body, in order', () => {
    const chunks: Buffer[] = [];
    const stdin = new Writable({
      write: (c: Buffer, _e, cb) => (chunks.push(c), cb()),
      writev: (cs, cb) => (chunks.push(...cs.map((c) => c.chunk as Buffer)), cb()),
    });
    const writer = new StdinWriter(
      stdin,
      30_000,
      () => {},
      () => {},
    );
    writer.writeFrame(Buffer.from('Content-Length: 2\r\n\r\n'), Buffer.from('{}'));
    expect(Buffer.concat(chunks).toString()).toBe('Content-Length: 2\r\n\r\n{}');
  });

  it('pauses the producer on backpressure and reports a server that does not drain within the cutoff', () => {
    const clock = new ManualClock();
    const stdin = new Writable({ highWaterMark: 4, write: () => {} }); // never calls back: never drains
    const onStuck = vi.fn();
    const backpressure: boolean[] = [];
    const writer = new StdinWriter(stdin, 30_000, onStuck, (b) => backpressure.push(b), clock);
    writer.write(new Uint8Array(16));
    expect(backpressure).toEqual([true]);
    clock.advance(29_999);
    expect(onStuck).not.toHaveBeenCalled();
    clock.advance(1);
    expect(onStuck).toHaveBeenCalledTimes(1);
    writer.dispose();
  });

  it('resumes the producer and disarms the cutoff when stdin drains', async () => {
    const clock = new ManualClock();
    let release: (() => void) | undefined;
    const stdin = new Writable({ highWaterMark: 4, write: (_c, _e, cb) => (release = cb) });
    const onStuck = vi.fn();
    const backpressure: boolean[] = [];
    const writer = new StdinWriter(stdin, 30_000, onStuck, (b) => backpressure.push(b), clock);
    writer.write(new Uint8Array(16));
    expect(clock.pending).toBe(1);
    release?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(backpressure).toEqual([true, false]);
    expect(clock.pending).toBe(0);
    clock.advance(60_000);
    expect(onStuck).not.toHaveBeenCalled();
  });
});
