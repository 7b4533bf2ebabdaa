import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { Keepalive } from './keepalive.js';

function keepalive(maxMisses = 2) {
  const clock = new ManualClock(0);
  const state = { pings: 0, deaths: 0, judging: true };
  const alive = new Keepalive(
    { intervalMs: 100, maxMisses },
    {
      ping: () => state.pings++,
      canJudge: () => state.judging,
      dead: () => state.deaths++,
    },
    clock,
  );
  return { clock, state, alive };
}

describe('Keepalive on a manual clock', () => {
  it('pings each interval; after maxMisses silent ticks the peer is dead once and pinging stops', () => {
    const { clock, state } = keepalive();
    clock.advance(100);
    expect(state.pings).toBe(1);
    clock.advance(100); // miss 1: pinged again
    expect(state).toMatchObject({ pings: 2, deaths: 0 });
    clock.advance(100); // miss 2
    expect(state).toMatchObject({ pings: 2, deaths: 1 });
    clock.advance(1_000);
    expect(state).toMatchObject({ pings: 2, deaths: 1 });
    expect(clock.pending).toBe(0);
  });

  it('anything heard resets the misses; while it cannot judge (we paused) it never declares death', () => {
    const { clock, state, alive } = keepalive();
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      alive.heard();
    }
    expect(state.deaths).toBe(0);
    state.judging = false;
    clock.advance(1_000);
    expect(state.deaths).toBe(0);
  });

  it('dispose cancels its timer', () => {
    const { clock, state, alive } = keepalive();
    alive.dispose();
    expect(clock.pending).toBe(0);
    clock.advance(1_000);
    expect(state.pings).toBe(0);
  });
});
