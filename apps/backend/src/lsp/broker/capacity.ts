/**
 * Lease capacity. Slots count leases attached or detached (default: sized from the machine's
 * memory, see defaultMaxLeases); reattaching costs none.
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
import type { EndReason, LeaseOwnerKind } from './types.js';
import type { Outbox } from './outbox.js';

/**
 * What one language server is budgeted: about what tsserver, pyright or clangd hold resident on a
 * project of a few thousand files (the small servers, bash or YAML, take far less).
 */
export const SERVER_MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;
/** The share of the machine's memory language servers may take; the rest stays for the task hosts, the backend and the browser. */
export const SERVER_MEMORY_SHARE = 0.5;
/**
 * The default never goes below this: every language of the demo (seventeen) open in one session,
 * with room for a second session's few, whatever the machine. It is also the broker's own default.
 */
export const DEFAULT_MAX_LEASES = 20;

/**
 * The default lease cap: as many servers as half the machine's memory holds at 256 MiB each, and at
 * least 20. A fixed small count refused the product's own demo; a count from memory protects the
 * machine by what servers really cost. KANDEV_LSP_MAX_CONNECTIONS, when set, replaces it.
 */
export function defaultMaxLeases(totalMemoryBytes: number): number {
  if (!Number.isFinite(totalMemoryBytes) || totalMemoryBytes <= 0) return DEFAULT_MAX_LEASES;
  return Math.max(DEFAULT_MAX_LEASES, Math.floor((totalMemoryBytes * SERVER_MEMORY_SHARE) / SERVER_MEMORY_BUDGET_BYTES));
}

/** KANDEV_LSP_MAX_CONNECTIONS: a positive integer, else `fallback` (the default cap). */
export function parseMaxLeases(raw: string | undefined, fallback: number = DEFAULT_MAX_LEASES): number {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return fallback;
  const value = Number(raw.trim());
  return value >= 1 && Number.isSafeInteger(value) ? value : fallback;
}

export type Admission = { kind: 'admit' } | { kind: 'evict'; victim: Lease } | { kind: 'refuse' };

/**
 * Whether a NEW lease may be created now (reattachment never asks). An agent's lease counts like
 * any other, but it may only evict a detached agent lease: a lease a person has attached (even one
 * whose tab is away for now) is never given up for an agent, which is refused instead.
 */
export function decideAdmission(table: LeaseTable, maxLeases: number, ownerKind: LeaseOwnerKind = 'person'): Admission {
  if (table.slotHolders().length < maxLeases) return { kind: 'admit' };
  const victim = table.oldestDetached(ownerKind === 'agent' ? 'agent' : undefined);
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
