/**
 * The broker's whole state, in one plain object that every event-family reducer is handed: the
 * leases, which socket is on which lease, armed timers, settings, counters and the fixed options.
 * Nothing in it performs I/O; the reducers mutate it and push effects to the event's outbox.
 */
import { BROWSER_REQUEST_TIMEOUT_MS, SERVER_RESTART_LIMIT } from '@kandev/protocol';
import { DEFAULT_MAX_LEASES } from './capacity.js';
import type { BrokerTiming, EventContext } from './context.js';
import { DETACHED_DEADLINE_MS } from './deadlines.js';
import { HOLDER_PROBE_MS, HolderProbes } from './holderProbe.js';
import type { Attachment, Lease } from './lease.js';
import { LeaseTable } from './leaseTable.js';
import { newCounters, type BrokerCounters } from './metrics.js';
import type { Outbox } from './outbox.js';
import { SettingsBook } from './settings.js';
import { TimerRegistry } from './timers.js';
import type { AttachmentId, BrokerOptions, LeaseId } from './types.js';

export const DEFAULT_SHUTDOWN_WAIT_MS = 5_000;
export const DEFAULT_REAP_WAIT_MS = 10_000;

export interface BrokerState {
  readonly table: LeaseTable;
  /** Live attachments (browser sockets) -> their lease. */
  readonly attachments: Map<AttachmentId, LeaseId>;
  readonly timers: TimerRegistry;
  readonly settings: SettingsBook;
  readonly counters: BrokerCounters;
  readonly maxLeases: number;
  readonly timing: BrokerTiming;
  readonly newLeaseId: () => LeaseId;
  /** Newcomers waiting for the holder of their hinted lease to answer (holderProbe.ts). */
  readonly probes: HolderProbes;
  readonly holderProbeMs: number;
  /** Creation order of leases (capacity evicts the oldest detached one). */
  seq: number;
  /** Set by `shutdown`: nothing is admitted or adopted after it. */
  stopped: boolean;
}

export function createBrokerState(options: BrokerOptions): BrokerState {
  return {
    table: new LeaseTable(),
    attachments: new Map(),
    timers: new TimerRegistry(),
    settings: new SettingsBook(),
    counters: newCounters(),
    maxLeases: options.maxLeases ?? DEFAULT_MAX_LEASES,
    newLeaseId: options.newLeaseId,
    probes: new HolderProbes(),
    holderProbeMs: options.holderProbeMs ?? HOLDER_PROBE_MS,
    seq: 0,
    stopped: false,
    timing: {
      detachedDeadlineMs: options.detachedDeadlineMs ?? DETACHED_DEADLINE_MS,
      shutdownWaitMs: options.shutdownWaitMs ?? DEFAULT_SHUTDOWN_WAIT_MS,
      reapWaitMs: options.reapWaitMs ?? DEFAULT_REAP_WAIT_MS,
      requestTimeoutMs: options.requestTimeoutMs ?? BROWSER_REQUEST_TIMEOUT_MS,
      restartLimit: options.restartLimit ?? SERVER_RESTART_LIMIT,
    },
  };
}

/** What the message routers (browserRpc, serverRpc, restart) need for one event. */
export function contextFor(state: BrokerState, out: Outbox): EventContext {
  return { out, settings: state.settings, timing: state.timing };
}

/** The lease a live attachment is on, with that attachment; undefined for an ended generation (S33). */
export function attachmentOf(state: BrokerState, attachmentId: AttachmentId): { lease: Lease; attachment: Attachment } | undefined {
  const leaseId = state.attachments.get(attachmentId);
  const lease = leaseId === undefined ? undefined : state.table.get(leaseId);
  if (!lease || lease.attachment?.id !== attachmentId) return undefined;
  return { lease, attachment: lease.attachment };
}
