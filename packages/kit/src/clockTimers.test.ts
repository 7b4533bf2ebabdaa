import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pendingSystemClockTimers, systemClock } from './clock.js';

describe('pendingSystemClockTimers (the timer-leak figure on /metrics)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts a scheduled timer until it fires, and a disposed one no more', () => {
    const before = pendingSystemClockTimers();
    const fired: string[] = [];
    systemClock.schedule(Date.now() + 1_000, () => fired.push('a'));
    const cancelled = systemClock.schedule(Date.now() + 5_000, () => fired.push('b'));
    expect(pendingSystemClockTimers()).toBe(before + 2);
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual(['a']);
    expect(pendingSystemClockTimers()).toBe(before + 1);
    cancelled.dispose();
    cancelled.dispose();
    expect(pendingSystemClockTimers()).toBe(before);
  });

  it('counts an interval until it is disposed, however often it fires', () => {
    const before = pendingSystemClockTimers();
    let ticks = 0;
    const every = systemClock.every(100, () => ticks++);
    vi.advanceTimersByTime(350);
    expect([ticks, pendingSystemClockTimers()]).toEqual([3, before + 1]);
    every.dispose();
    every.dispose();
    expect(pendingSystemClockTimers()).toBe(before);
  });

  it('does not count a fired timer again when its owner disposes it afterwards', () => {
    const before = pendingSystemClockTimers();
    const timer = systemClock.schedule(Date.now() + 10, () => undefined);
    vi.advanceTimersByTime(10);
    timer.dispose();
    expect(pendingSystemClockTimers()).toBe(before);
  });
});
