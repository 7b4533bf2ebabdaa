import { ManualClock } from '@kandev/kit';
import { formatListeningLine } from '@kandev/protocol';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { waitForListening } from './waitForListening.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('waitForListening', () => {
  it('skips other stdout lines and resolves the port of the protocol listening line, even split across chunks', async () => {
    const stdout = new PassThrough();
    const wait = waitForListening(stdout, 1_000, new ManualClock(0));
    const line = formatListeningLine(43_210);
    stdout.write('some library banner\n{"event":"other","port":1}\n');
    stdout.write(line.slice(0, 10));
    stdout.write(line.slice(10));
    expect(await wait.outcome).toEqual({ kind: 'listening', port: 43_210 });
  });

  it('times out on its clock when no listening line comes', async () => {
    const clock = new ManualClock(0);
    const stdout = new PassThrough();
    const wait = waitForListening(stdout, 1_000, clock);
    clock.advance(999);
    let settled = false;
    void wait.outcome.then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    clock.advance(1);
    expect(await wait.outcome).toEqual({ kind: 'timeout' });
    expect(clock.pending).toBe(0);
  });

  it('does not take a listening line glued to an overlong line, and drains stdout once the wait ended', async () => {
    const clock = new ManualClock(0);
    const stdout = new PassThrough({ highWaterMark: 16 });
    const wait = waitForListening(stdout, 1_000, clock);
    stdout.write('x'.repeat(300));
    stdout.write(formatListeningLine(1_234));
    stdout.write(formatListeningLine(5_678));
    expect(await wait.outcome).toEqual({ kind: 'listening', port: 5_678 });
    // Afterwards everything is read and dropped: a chatty agentctl never fills the pipe.
    for (let i = 0; i < 100; i++) stdout.write('chatter\n');
    await tick();
    expect(stdout.readableLength).toBe(0);
  });

  it('dispose stops the wait and its timer', async () => {
    const clock = new ManualClock(0);
    const stdout = new PassThrough();
    const wait = waitForListening(stdout, 1_000, clock);
    wait.dispose();
    expect(clock.pending).toBe(0);
    stdout.write(formatListeningLine(80));
    await tick();
    expect(stdout.readableLength).toBe(0);
  });
});
