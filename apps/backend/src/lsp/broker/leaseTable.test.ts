import { describe, expect, it } from 'vitest';
import { createLease, type Lease } from './lease.js';
import { LeaseTable } from './leaseTable.js';
import { DocumentSync } from './documents.js';
import { WORKSPACE } from './testkit.js';

let seq = 0;
function lease(id: string, o: { session?: string; user?: string; language?: 'go' | 'python'; detachedAt?: number; attached?: boolean } = {}): Lease {
  const l = createLease({ id, sessionId: o.session ?? 's1', language: o.language ?? 'go', userId: o.user ?? 'u1', createdAt: 0, seq: ++seq });
  l.phase = { kind: 'running', host: WORKSPACE };
  if (o.attached) l.attachment = { id: `att-${id}`, generation: 1, resumed: false, documents: new DocumentSync(l.versions, false), attachedAt: 0 };
  else l.detachedAt = o.detachedAt ?? 0;
  return l;
}

const claim = (table: LeaseTable, leaseHint?: string, o: { session?: string; user?: string } = {}) =>
  table.claim({ sessionId: o.session ?? 's1', language: 'go', userId: o.user ?? 'u1', ...(leaseHint === undefined ? {} : { leaseHint }) });

describe('LeaseTable claim rules', () => {
  it('a hint naming a detached lease of the same session, language and user reattaches it', () => {
    const table = new LeaseTable();
    table.add(lease('A', { detachedAt: 10 }));
    table.add(lease('B', { detachedAt: 20 }));
    expect(claim(table, 'A')).toMatchObject({ kind: 'reattach', via: 'lease_hint', lease: { id: 'A' } });
  });

  it('C10 a hint naming an ATTACHED lease never steals it: the duplicate gets a lease of its own', () => {
    const table = new LeaseTable();
    table.add(lease('A', { attached: true }));
    expect(claim(table, 'A')).toEqual({ kind: 'new' });
  });

  it('without a usable hint, the most recently detached lease of the same key is claimed', () => {
    const table = new LeaseTable();
    table.add(lease('old', { detachedAt: 10 }));
    table.add(lease('recent', { detachedAt: 30 }));
    table.add(lease('otherUser', { detachedAt: 40, user: 'u2' }));
    table.add(lease('otherSession', { detachedAt: 50, session: 's2' }));
    table.add(lease('otherLanguage', { detachedAt: 60, language: 'python' }));
    expect(claim(table)).toMatchObject({ kind: 'reattach', via: 'recent_detached', lease: { id: 'recent' } });
    // a hint that names someone else's lease only routes: it does not authorize
    expect(claim(table, 'otherUser')).toMatchObject({ kind: 'reattach', via: 'recent_detached', lease: { id: 'recent' } });
    expect(claim(table, 'nope')).toMatchObject({ lease: { id: 'recent' } });
  });

  it('ended (releasing) leases are never claimed', () => {
    const table = new LeaseTable();
    const l = lease('A', { detachedAt: 10 });
    l.phase = { kind: 'releasing', release: { reason: 'expiry', step: 'reaping', awaitsReport: false } };
    l.endReason = 'expiry';
    table.add(l);
    expect(claim(table, 'A')).toEqual({ kind: 'new' });
  });

  it('the oldest detached lease is the eviction candidate; ties break by creation order', () => {
    const table = new LeaseTable();
    table.add(lease('att', { attached: true }));
    table.add(lease('b', { detachedAt: 50 }));
    table.add(lease('a', { detachedAt: 20 }));
    table.add(lease('a2', { detachedAt: 20 }));
    expect(table.oldestDetached()?.id).toBe('a');
    expect(table.slotHolders()).toHaveLength(4);
  });
});
