/**
 * Timers the broker has asked for, by id. A `timerFired` whose id is not here (cancelled, already
 * fired, or from a lease that ended) is stale and ignored: correctness never depends on the wiring
 * managing to cancel a timer in time.
 */
import type { AttachmentId, LeaseId, TimerId } from './types.js';

export type TimerPurpose =
  /** The one-hour detached deadline; `epoch` must still be the lease's current deadline epoch. */
  | { kind: 'deadline'; leaseId: LeaseId; epoch: number }
  /** The 30 s budget of one browser request, by its server-facing id. */
  | { kind: 'request'; leaseId: LeaseId; serverId: number }
  /** Bounded wait for the answer to `shutdown` during a release. */
  | { kind: 'shutdown'; leaseId: LeaseId }
  /** Bounded wait for agentctl to confirm the stream closed (process tree reaped). */
  | { kind: 'reap'; leaseId: LeaseId }
  /** Backoff before a crashed server's restart `attempt`. */
  | { kind: 'restart'; leaseId: LeaseId; attempt: number }
  /** How long a newcomer waits for the holder of its hinted lease to answer (holderProbe.ts). */
  | { kind: 'holderProbe'; newcomer: AttachmentId };

export function timerIdOf(purpose: TimerPurpose): TimerId {
  switch (purpose.kind) {
    case 'deadline':
      return `deadline:${purpose.leaseId}:${purpose.epoch}`;
    case 'request':
      return `request:${purpose.leaseId}:${purpose.serverId}`;
    case 'shutdown':
      return `shutdown:${purpose.leaseId}`;
    case 'reap':
      return `reap:${purpose.leaseId}`;
    case 'restart':
      return `restart:${purpose.leaseId}:${purpose.attempt}`;
    case 'holderProbe':
      return `holderProbe:${purpose.newcomer}`;
  }
}

export class TimerRegistry {
  private readonly armed = new Map<TimerId, TimerPurpose>();

  add(purpose: TimerPurpose): TimerId {
    const id = timerIdOf(purpose);
    this.armed.set(id, purpose);
    return id;
  }

  /** Removes and returns the purpose of a fired timer; undefined means stale. */
  take(id: TimerId): TimerPurpose | undefined {
    const purpose = this.armed.get(id);
    this.armed.delete(id);
    return purpose;
  }

  /** Forgets a timer; true when it was armed (so a cancel effect is worth sending). */
  remove(id: TimerId): boolean {
    return this.armed.delete(id);
  }

  /** Every timer still armed for a lease. */
  ofLease(leaseId: LeaseId): TimerId[] {
    const ids: TimerId[] = [];
    for (const [id, purpose] of this.armed) if ('leaseId' in purpose && purpose.leaseId === leaseId) ids.push(id);
    return ids;
  }

  get size(): number {
    return this.armed.size;
  }
}
