/**
 * The leases, and the rules for which lease a browser connection claims.
 *
 * Claim rules, for a connection of (session, language, user) with an optional hint:
 *   1. the hint names a detached lease of the same session, language and user -> reattach it;
 *   2. otherwise (no hint, unknown, foreign, releasing, or ATTACHED: a duplicated tab's copied hint
 *      never steals an attached lease) -> the most recently detached lease of the same session,
 *      language and user, if any -> reattach it;
 *   3. otherwise -> a new lease (subject to capacity).
 * Two attached windows therefore never share a lease.
 */
import type { LanguageId } from '@kandev/protocol';
import { holdsSlot, isDetached, type Lease } from './lease.js';
import type { LeaseId, LeaseOwnerKind, SessionId, UserId } from './types.js';

export interface ClaimRequest {
  sessionId: SessionId;
  language: LanguageId;
  userId: UserId;
  leaseHint?: string;
  ownerKind?: LeaseOwnerKind;
}

export type ClaimDecision = { kind: 'reattach'; lease: Lease; via: 'lease_hint' | 'recent_detached' } | { kind: 'new' };

export class LeaseTable {
  private readonly leases = new Map<LeaseId, Lease>();

  add(lease: Lease): void {
    this.leases.set(lease.id, lease);
  }

  get(id: LeaseId): Lease | undefined {
    return this.leases.get(id);
  }

  remove(id: LeaseId): void {
    this.leases.delete(id);
  }

  all(): Lease[] {
    return [...this.leases.values()];
  }

  ofSession(sessionId: SessionId): Lease[] {
    return this.all().filter((l) => l.sessionId === sessionId);
  }

  ofUser(userId: UserId): Lease[] {
    return this.all().filter((l) => l.userId === userId);
  }

  /** Leases counted against capacity: attached or detached, not yet on a terminal path. */
  slotHolders(): Lease[] {
    return this.all().filter(holdsSlot);
  }

  claim(request: ClaimRequest): ClaimDecision {
    // A person never resumes an agent's lease, nor an agent a person's.
    const ownerKind = request.ownerKind ?? 'person';
    const sameOwner = (l: Lease) =>
      l.sessionId === request.sessionId && l.language === request.language && l.userId === request.userId && l.ownerKind === ownerKind;
    if (request.leaseHint !== undefined) {
      const hinted = this.leases.get(request.leaseHint);
      if (hinted && sameOwner(hinted) && isDetached(hinted)) return { kind: 'reattach', lease: hinted, via: 'lease_hint' };
    }
    const recent = latest(this.all().filter((l) => sameOwner(l) && isDetached(l)));
    return recent ? { kind: 'reattach', lease: recent, via: 'recent_detached' } : { kind: 'new' };
  }

  /** The detached lease detached longest ago (capacity eviction picks it). */
  /** The oldest detached lease, of `ownerKind` only when given. */
  oldestDetached(ownerKind?: LeaseOwnerKind): Lease | undefined {
    let oldest: Lease | undefined;
    for (const lease of this.all()) {
      if (!isDetached(lease) || (ownerKind !== undefined && lease.ownerKind !== ownerKind)) continue;
      if (!oldest || compareDetached(lease, oldest) < 0) oldest = lease;
    }
    return oldest;
  }
}

/** By detach time, then creation order, so ties resolve the same way every time. */
function compareDetached(a: Lease, b: Lease): number {
  return (a.detachedAt ?? 0) - (b.detachedAt ?? 0) || a.seq - b.seq;
}

function latest(leases: Lease[]): Lease | undefined {
  let best: Lease | undefined;
  for (const lease of leases) if (!best || compareDetached(lease, best) > 0) best = lease;
  return best;
}
