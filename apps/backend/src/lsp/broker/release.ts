/**
 * The release handshake (explicit Stop, editor idle, one hour detached, capacity eviction):
 *
 *   reject the asking browser's pending requests
 *   -> `shutdown` (bounded wait: the answer or the shutdown timer, whichever comes first)
 *   -> `exit`, then `{"control":"release-stream"}` upstream (agentctl gives the server a moment to
 *      act on `exit`, then reaps its whole process tree)
 *   -> agentctl's `{"status":"reaped","clean":true}`: `{"status":"released","reason"}` to the
 *      asking browser, close 1000. A report with `clean:false`, a stream that closes without a
 *      report, or the reap timer: the browser is closed 4009 instead, as something may still run.
 *
 * A server that never got `initialize` is not asked to `shutdown`: it gets `exit` directly. A lease
 * still starting (no process yet) just has its upstream closed, and that close is the confirmation
 * (agentctl cancels the install and reaps whatever it started before completing the close). The caller accounts the end (slot,
 * counters, logs) before starting; these steps only move the handshake along.
 */
import { CloseCode, RpcErrorCode } from '@kandev/protocol';
import type { ReleaseReason, WorkspaceIdentity } from '@kandev/protocol';
import { errorResponse, notification, request } from './jsonrpc.js';
import { allocServerId, hostOf, releaseOf, type Lease } from './lease.js';
import type { Outbox } from './outbox.js';
import { timerIdOf } from './timers.js';
import type { EndReason, ReleaseParties, ReleaseProcess } from './types.js';

/** Defined in types.ts: lease.ts holds one, and this module works on leases (no import cycle). */
export type { ReleaseProcess } from './types.js';

export interface ReleaseTiming {
  shutdownWaitMs: number;
  reapWaitMs: number;
}

export function startRelease(lease: Lease, reason: EndReason, ack: ReleaseReason | undefined, out: Outbox, timing: ReleaseTiming): void {
  const attachment = lease.attachment;
  const host = hostOf(lease);
  const parties: ReleaseParties = { reason };
  lease.detachedAt = undefined;
  lease.deadline.disarm();
  out.cancelLeaseTimers(lease.id);
  if (attachment) {
    parties.waiter = attachment.id;
    if (ack) parties.ack = ack;
    for (const entry of lease.requests.drainGeneration(attachment.generation)) {
      out.toBrowser(attachment.id, errorResponse(entry.browserId, RpcErrorCode.RequestCancelled, 'the language server is being released'));
    }
  }
  if (host && lease.init.forwarded) {
    const id = allocServerId(lease);
    lease.phase = { kind: 'releasing', host, release: { ...parties, step: 'shutting_down', shutdownServerId: id } };
    out.toServer(lease.id, request(id, 'shutdown'));
    out.arm({ kind: 'shutdown', leaseId: lease.id }, timing.shutdownWaitMs);
    return;
  }
  if (host) out.toServer(lease.id, notification('exit'));
  closeAndAwaitReap(lease, parties, host, out, timing);
}

/** `shutdown` answered (result or error) or its wait ran out: `exit`, then close upstream. */
export function afterShutdown(lease: Lease, out: Outbox, timing: ReleaseTiming): void {
  const phase = lease.phase;
  if (phase.kind !== 'releasing' || phase.release.step !== 'shutting_down') return;
  out.cancel(timerIdOf({ kind: 'shutdown', leaseId: lease.id }));
  out.toServer(lease.id, notification('exit'));
  closeAndAwaitReap(lease, partiesOf(phase.release), phase.host, out, timing);
}

function closeAndAwaitReap(lease: Lease, parties: ReleaseParties, host: WorkspaceIdentity | undefined, out: Outbox, timing: ReleaseTiming): void {
  lease.phase = {
    kind: 'releasing',
    release: { ...parties, step: 'reaping', awaitsReport: host !== undefined },
    ...(host ? { host } : {}),
  };
  if (host) out.releaseUpstream(lease.id);
  else out.closeUpstream(lease.id, CloseCode.Normal);
  out.arm({ kind: 'reap', leaseId: lease.id }, timing.reapWaitMs);
}

function partiesOf(release: ReleaseProcess): ReleaseParties {
  const { reason, waiter, ack } = release;
  return { reason, ...(waiter !== undefined ? { waiter } : {}), ...(ack !== undefined ? { ack } : {}) };
}

export type ReleaseOutcome = 'reaped' | 'reap_incomplete' | 'reap_timeout';

/** What the task-host stream's close means for a release under way. */
export function outcomeOfClose(lease: Lease): ReleaseOutcome {
  const release = releaseOf(lease);
  return release?.step === 'reaping' && release.awaitsReport ? 'reap_timeout' : 'reaped';
}

/**
 * The handshake is over: `reaped` when agentctl confirmed the tree gone, else something may still
 * run (it said so, or never said). The caller forgets the lease afterwards.
 */
export function finishRelease(lease: Lease, outcome: ReleaseOutcome, out: Outbox): void {
  const release = releaseOf(lease);
  const reaped = outcome === 'reaped';
  out.cancelLeaseTimers(lease.id);
  out.log('exit', outcome, lease.language);
  const waiter = release?.waiter;
  if (waiter === undefined) return;
  if (reaped && release?.ack) {
    out.toBrowser(waiter, { status: 'released', reason: release.ack });
    out.closeBrowser(waiter, CloseCode.Normal);
  } else {
    out.closeBrowser(waiter, CloseCode.TransportFailure);
  }
}
