/**
 * Counters and gauges of the broker, derived from its state. Labels are closed sets (end reasons);
 * never a task, session, lease, user or language id.
 */
import { holdsSlot, isDetached, type Lease } from './lease.js';
import { END_REASONS, type EndReason } from './types.js';

export interface BrokerCounters {
  created: number;
  reattached: number;
  /** Connections refused with 4005. */
  refusedAtCapacity: number;
  /** Leases ended, by reason (eviction is `released.eviction`). */
  released: Record<EndReason, number>;
}

export function newCounters(): BrokerCounters {
  const released = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;
  return { created: 0, reattached: 0, refusedAtCapacity: 0, released };
}

export interface BrokerMetrics {
  /** Gauges. */
  maxLeases: number;
  /** Leases holding a slot (attached + detached). */
  leases: number;
  /** Leases with a browser attached. */
  active: number;
  detached: number;
  /** Ended leases still finishing their shutdown handshake (hold no slot). */
  releasing: number;
  /** Slot-holding leases of agents' MCP clients (included in `leases`). */
  agentLeases: number;
  /** Counters. */
  createdTotal: number;
  reattachedTotal: number;
  evictedTotal: number;
  refusedAtCapacityTotal: number;
  releasedTotal: Record<EndReason, number>;
}

export function collectMetrics(leases: readonly Lease[], counters: BrokerCounters, maxLeases: number): BrokerMetrics {
  const holders = leases.filter(holdsSlot);
  return {
    maxLeases,
    leases: holders.length,
    active: holders.filter((l) => l.attachment !== undefined && l.phase.kind !== 'releasing').length,
    detached: holders.filter(isDetached).length,
    releasing: leases.filter((l) => l.phase.kind === 'releasing').length,
    agentLeases: holders.filter((l) => l.ownerKind === 'agent').length,
    createdTotal: counters.created,
    reattachedTotal: counters.reattached,
    evictedTotal: counters.released.eviction,
    refusedAtCapacityTotal: counters.refusedAtCapacity,
    releasedTotal: { ...counters.released },
  };
}
