/**
 * The terminal paths of a lease, shared by every event family: each goes through releaseSlotOnce,
 * so a lease's slot, counter and log line are accounted exactly once.
 */
import type { ReleaseReason } from '@kandev/protocol';
import { releaseSlotOnce } from './capacity.js';
import { releaseOf, restartOf, type Lease } from './lease.js';
import type { Outbox } from './outbox.js';
import { finishRelease, startRelease } from './release.js';
import { answerForwardedLocally } from './serverRpc.js';
import { contextFor, type BrokerState } from './state.js';
import type { BrowserCloseCode, EndReason, LogEvent, LogReason, UpstreamCloseCode } from './types.js';

/** Release, expiry, eviction, state limit: the slot goes now, the server is shut down politely. */
export function endGracefully(state: BrokerState, lease: Lease, reason: EndReason, ack: ReleaseReason | undefined, out: Outbox): void {
  if (!accountEnd(state, lease, reason, out)) return;
  if (restartOf(lease)?.step === 'backoff') {
    // Between a crash and its restart no process exists (agentctl reaped it before its 4006).
    const waiter = lease.attachment?.id;
    lease.phase = {
      kind: 'releasing',
      release: { reason, step: 'reaping', awaitsReport: false, ...(waiter !== undefined ? { waiter } : {}), ...(ack ? { ack } : {}) },
    };
    finishRelease(lease, 'reaped', out);
    return forget(state, lease, out);
  }
  if (lease.attachment) answerForwardedLocally(contextFor(state, out), lease, lease.attachment.generation);
  startRelease(lease, reason, ack, out, state.timing);
}

/** Server exit, lost upstream, session stop, shutdown: the lease is gone at once. */
export function endAbruptly(
  state: BrokerState,
  lease: Lease,
  reason: EndReason,
  browserCode: BrowserCloseCode,
  out: Outbox,
  upstreamCode?: UpstreamCloseCode,
): void {
  accountEnd(state, lease, reason, out);
  if (upstreamCode !== undefined && releaseOf(lease)?.step !== 'reaping') out.closeUpstream(lease.id, upstreamCode);
  if (lease.attachment) out.closeBrowser(lease.attachment.id, browserCode);
  forget(state, lease, out);
}

/** The lease leaves the table: its timers are cancelled and its attachment (if any) unmapped. */
export function forget(state: BrokerState, lease: Lease, out: Outbox): void {
  out.cancelLeaseTimers(lease.id);
  if (lease.attachment) state.attachments.delete(lease.attachment.id);
  lease.attachment = undefined;
  state.table.remove(lease.id);
}

/** Slot, counter and log of a lease's end, exactly once. */
function accountEnd(state: BrokerState, lease: Lease, reason: EndReason, out: Outbox): boolean {
  if (!releaseSlotOnce(lease, reason, out)) return false;
  state.counters.released[reason] += 1;
  const [event, logReason] = endLog(reason);
  out.log(event, logReason, lease.language);
  return true;
}

function endLog(reason: EndReason): [LogEvent, LogReason] {
  switch (reason) {
    case 'expiry':
      return ['expiry', 'detached_deadline'];
    case 'eviction':
      return ['eviction', 'capacity'];
    case 'stop':
    case 'editor_idle':
    case 'state_limit':
    case 'session_stopped':
    case 'shutdown':
    case 'trust_changed':
      return ['release', reason];
    default:
      return ['exit', reason];
  }
}
