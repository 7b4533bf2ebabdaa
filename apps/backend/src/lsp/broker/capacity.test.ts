import { describe, expect, it } from 'vitest';
import { decideAdmission, DEFAULT_MAX_LEASES, defaultMaxLeases, parseMaxLeases, releaseSlotOnce } from './capacity.js';
import { createLease } from './lease.js';
import { LeaseTable } from './leaseTable.js';
import { Outbox } from './outbox.js';
import { TimerRegistry } from './timers.js';
import { DocumentSync } from './documents.js';

describe('capacity', () => {
  it('parses KANDEV_LSP_MAX_CONNECTIONS, falling back to the default cap', () => {
    expect(DEFAULT_MAX_LEASES).toBe(20);
    expect(parseMaxLeases(undefined)).toBe(20);
    expect(parseMaxLeases(undefined, 40)).toBe(40);
    expect(parseMaxLeases('3', 40)).toBe(3);
    expect(parseMaxLeases(' 12 ')).toBe(12);
    for (const bad of ['0', '-1', 'x', '2.5', '']) expect(parseMaxLeases(bad, 40)).toBe(40);
  });

  it('sizes the default cap from memory: half of it at 256 MiB a server, never below 20 (the whole demo fits)', () => {
    const GiB = 1024 ** 3;
    expect(defaultMaxLeases(2 * GiB)).toBe(20);
    expect(defaultMaxLeases(8 * GiB)).toBe(20);
    expect(defaultMaxLeases(16 * GiB)).toBe(32);
    expect(defaultMaxLeases(24 * GiB)).toBe(48);
    expect(defaultMaxLeases(64 * GiB + 100)).toBe(128);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(defaultMaxLeases(bad)).toBe(20);
  });

  it('admits under the cap, evicts the oldest detached at it, refuses when all are attached', () => {
    const table = new LeaseTable();
    const a = createLease({ id: 'a', sessionId: 's', language: 'go', userId: 'u', createdAt: 0, seq: 1 });
    const b = createLease({ id: 'b', sessionId: 's', language: 'go', userId: 'u', createdAt: 0, seq: 2 });
    a.attachment = { id: 'x', generation: 1, resumed: false, documents: new DocumentSync(a.versions, false), attachedAt: 0 };
    b.attachment = { id: 'y', generation: 1, resumed: false, documents: new DocumentSync(b.versions, false), attachedAt: 0 };
    table.add(a);
    expect(decideAdmission(table, 2)).toEqual({ kind: 'admit' });
    table.add(b);
    expect(decideAdmission(table, 2)).toEqual({ kind: 'refuse' });
    b.attachment = undefined;
    b.detachedAt = 5;
    expect(decideAdmission(table, 2)).toEqual({ kind: 'evict', victim: b });
  });

  it('releases a slot exactly once whatever path comes second', () => {
    const lease = createLease({ id: 'a', sessionId: 's', language: 'go', userId: 'u', createdAt: 0, seq: 1 });
    const out = new Outbox(0, new TimerRegistry());
    expect(releaseSlotOnce(lease, 'stop', out)).toBe(true);
    expect(releaseSlotOnce(lease, 'session_stopped', out)).toBe(false);
    expect(out.effects).toEqual([{ type: 'releaseSlot', leaseId: 'a' }]);
    expect(lease.endReason).toBe('stop');
  });
});
