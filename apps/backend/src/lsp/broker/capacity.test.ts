import { describe, expect, it } from 'vitest';
import { decideAdmission, DEFAULT_MAX_LEASES, parseMaxLeases, releaseSlotOnce } from './capacity.js';
import { createLease } from './lease.js';
import { LeaseTable } from './leaseTable.js';
import { Outbox } from './outbox.js';
import { TimerRegistry } from './timers.js';
import { DocumentSync } from './documents.js';

describe('capacity', () => {
  it('parses KANDEV_LSP_MAX_CONNECTIONS, falling back to 8', () => {
    expect(DEFAULT_MAX_LEASES).toBe(8);
    expect(parseMaxLeases(undefined)).toBe(8);
    expect(parseMaxLeases('3')).toBe(3);
    expect(parseMaxLeases(' 12 ')).toBe(12);
    for (const bad of ['0', '-1', 'x', '2.5', '']) expect(parseMaxLeases(bad)).toBe(8);
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
