import { describe, expect, it } from 'vitest';
import { DetachDeadline, DETACHED_DEADLINE_MS } from './deadlines.js';
import { TimerRegistry, timerIdOf } from './timers.js';

describe('detached deadline and timer registry (two independent guards against stale timers)', () => {
  it('C07 the deadline is one hour and only the latest armed epoch is current', () => {
    expect(DETACHED_DEADLINE_MS).toBe(3_600_000);
    const d = new DetachDeadline();
    const first = d.arm();
    expect(d.isCurrent(first)).toBe(true);
    d.disarm(); // reattached
    expect(d.isCurrent(first)).toBe(false);
    const second = d.arm(); // detached again
    expect(second).not.toBe(first);
    expect(d.isCurrent(first)).toBe(false);
    expect(d.isCurrent(second)).toBe(true);
    d.disarm();
    expect(d.isCurrent(second)).toBe(false);
  });

  it('a timer id is handled once: after firing or cancel it is unknown', () => {
    const timers = new TimerRegistry();
    const purpose = { kind: 'deadline' as const, leaseId: 'L', epoch: 1 };
    const id = timers.add(purpose);
    expect(id).toBe(timerIdOf(purpose));
    expect(timers.take(id)).toEqual(purpose);
    expect(timers.take(id)).toBeUndefined();
    const other = timers.add({ kind: 'reap', leaseId: 'L' });
    expect(timers.remove(other)).toBe(true);
    expect(timers.remove(other)).toBe(false);
    expect(timers.take(other)).toBeUndefined();
  });

  it('timer ids are distinct per purpose, lease and epoch', () => {
    const ids = new Set([
      timerIdOf({ kind: 'deadline', leaseId: 'L', epoch: 1 }),
      timerIdOf({ kind: 'deadline', leaseId: 'L', epoch: 3 }),
      timerIdOf({ kind: 'request', leaseId: 'L', serverId: 1 }),
      timerIdOf({ kind: 'shutdown', leaseId: 'L' }),
      timerIdOf({ kind: 'reap', leaseId: 'L' }),
      timerIdOf({ kind: 'reap', leaseId: 'M' }),
    ]);
    expect(ids.size).toBe(6);
  });
});
