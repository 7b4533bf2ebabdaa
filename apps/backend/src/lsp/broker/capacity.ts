/**
 * Lease capacity. Slots count leases attached or detached (default 8); reattaching costs none.
 * A new lease is admitted when a slot is free; when none is, the oldest detached lease is evicted
 * to make room; when every lease is attached the connection is refused with 4005. The decision is
 * taken before the task host is started or resumed: a refusal starts nothing.
 *
 * A lease gives its slot back exactly once, the moment its terminal path is decided (release,
 * expiry, eviction, server exit, session stop, shutdown): `endReason` is set and `releaseSlot` is
 * emitted together, guarded so a second terminal event finds nothing to release. A released lease
 * may still be shutting down for a bounded time (shutdown wait + reap wait), during which its
 * process overlaps with the one admitted in its place.
 */
import type { Lease } from './lease.js';
import type { LeaseTable } from './leaseTable.js';
import type { EndReason } from './types.js';
import type { Outbox } from './outbox.js';

export const DEFAULT_MAX_LEASES = 8;

/** KANDEV_LSP_MAX_CONNECTIONS: a positive integer, else the default. */
export function parseMaxLeases(raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return DEFAULT_MAX_LEASES;
  const value = Number(raw.trim());
  return value >= 1 && Number.isSafeInteger(value) ? value : DEFAULT_MAX_LEASES;
}

export type Admission = { kind: 'admit' } | { kind: 'evict'; victim: Lease } | { kind: 'refuse' };

/** Whether a NEW lease may be created now (reattachment never asks). */
export function decideAdmission(table: LeaseTable, maxLeases: number): Admission {
  if (table.slotHolders().length < maxLeases) return { kind: 'admit' };
  const victim = table.oldestDetached();
  return victim ? { kind: 'evict', victim } : { kind: 'refuse' };
}

/**
 * Marks the lease ended and gives its slot back. Returns false (and emits nothing) when the lease
 * already ended: the slot is released exactly once whatever path comes second.
 */
export function releaseSlotOnce(lease: Lease, reason: EndReason, out: Outbox): boolean {
  if (lease.endReason !== undefined) return false;
  lease.endReason = reason;
  out.push({ type: 'releaseSlot', leaseId: lease.id });
  return true;
}
