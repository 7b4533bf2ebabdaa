/**
 * The attachments family: a browser socket arrives (admission, a probe of its hinted lease's
 * holder, a new lease or a reattach), or goes (closed, stuck) and its lease lives on, detached.
 * A pure reducer: (state, event, now in the outbox) -> state changed in place + effects.
 */
import { CloseCode } from '@kandev/protocol';
import { decideAdmission } from './capacity.js';
import { observeSettings } from './configPush.js';
import { holderToProbe } from './holderProbe.js';
import { notification } from './jsonrpc.js';
import { createLease, exceedsRetainedLimit, isDetached, newAttachment, type Lease } from './lease.js';
import { endGracefully } from './leaseEnd.js';
import type { Outbox } from './outbox.js';
import { readyFrame } from './readyFrame.js';
import { answerForwardedLocally, sendInitialized } from './serverRpc.js';
import { attachmentOf, contextFor, type BrokerState } from './state.js';
import { timerIdOf } from './timers.js';
import type { AttachmentEvent, AttachmentId, AttachReason, BrowserConnected, DetachReason } from './types.js';

export function reduceAttachmentEvent(state: BrokerState, event: AttachmentEvent, out: Outbox): void {
  switch (event.type) {
    case 'browserConnected':
      return connect(state, event, out);
    case 'browserClosed':
      return browserGone(state, event.attachmentId, 'browser_closed', out);
    case 'browserWriteTimedOut':
      return browserGone(state, event.attachmentId, 'write_timeout', out);
    case 'holderAnswered':
      return holderProbed(state, event.newcomer, true, out);
    case 'holderSilent':
      return holderProbed(state, event.newcomer, false, out);
  }
}

function connect(state: BrokerState, e: BrowserConnected, out: Outbox): void {
  if (state.stopped) return out.closeBrowser(e.attachmentId, CloseCode.GoingAway);
  // Attachment ids are unique per socket; a repeated one is a wiring defect and changes nothing.
  if (state.attachments.has(e.attachmentId) || state.probes.has(e.attachmentId)) return;
  const holder = holderToProbe(e, e.leaseHint === undefined ? undefined : state.table.get(e.leaseHint));
  if (holder !== undefined) {
    // Admitted once the holder answered or stayed silent (holderProbe.ts).
    state.probes.hold({ connected: e, holder });
    out.push({ type: 'probeBrowser', attachmentId: holder, newcomer: e.attachmentId, timeoutMs: state.holderProbeMs });
    out.arm({ kind: 'holderProbe', newcomer: e.attachmentId }, state.holderProbeMs);
    return;
  }
  admit(state, e, out);
}

/**
 * The holder of the newcomer's hinted lease answered (alive: C10, the newcomer is admitted
 * without it) or did not (C05: it is dropped and detached first, so the newcomer resumes it).
 * Also reached when the probe's own deadline fires (lifecycle.ts).
 */
export function holderProbed(state: BrokerState, newcomer: AttachmentId, alive: boolean, out: Outbox): void {
  const held = state.probes.take(newcomer);
  if (!held) return; // concluded already: a late answer, silence or deadline
  out.cancel(timerIdOf({ kind: 'holderProbe', newcomer }));
  if (!alive && attachmentOf(state, held.holder)) {
    out.push({ type: 'terminateBrowser', attachmentId: held.holder });
    browserGone(state, held.holder, 'browser_closed', out);
  }
  if (state.stopped) return out.closeBrowser(newcomer, CloseCode.GoingAway);
  admit(state, held.connected, out);
}

function admit(state: BrokerState, e: BrowserConnected, out: Outbox): void {
  if (!e.executorSupported) return out.closeBrowser(e.attachmentId, CloseCode.ExecutorUnsupported);
  observeSettings(state, e.userId, e.settings, out);
  const trusted = e.trustWorkspaceTools === true;
  retireOtherTrust(state, e, trusted, out);
  const claim = state.table.claim(e);
  if (claim.kind === 'reattach') {
    state.counters.reattached += 1;
    return attach(state, claim.lease, e.attachmentId, claim.via, out);
  }
  // A new lease: capacity is decided here, before the task host is started or resumed.
  const admission = decideAdmission(state.table, state.maxLeases, e.ownerKind);
  if (admission.kind === 'refuse') {
    state.counters.refusedAtCapacity += 1;
    return out.closeBrowser(e.attachmentId, CloseCode.CapacityReached);
  }
  if (admission.kind === 'evict') endGracefully(state, admission.victim, 'eviction', undefined, out);
  const lease = createLease({
    id: state.newLeaseId(),
    sessionId: e.sessionId,
    language: e.language,
    userId: e.userId,
    createdAt: out.now,
    seq: ++state.seq,
    trustWorkspaceTools: trusted,
    ownerKind: e.ownerKind ?? 'person',
  });
  state.table.add(lease);
  state.counters.created += 1;
  out.log('create', 'new_lease', lease.language);
  openUpstream(state, lease, out);
  attach(state, lease, e.attachmentId, 'new_lease', out);
}

/**
 * Asks the wiring for the lease's task-host stream (a new server), under the trust the lease
 * started with; a restart after a crash asks again the same way (lifecycle.ts).
 */
export function openUpstream(state: BrokerState, lease: Lease, out: Outbox): void {
  out.push({
    type: 'openUpstream',
    leaseId: lease.id,
    sessionId: lease.sessionId,
    language: lease.language,
    autoInstall: state.settings.autoInstall(lease.userId, lease.language),
    trustWorkspaceTools: lease.trustWorkspaceTools,
  });
}

/**
 * A trust change reaches servers started after it: a detached lease of this (session, language,
 * user) that was started under the other trust is released instead of reattached, so the
 * connection gets a fresh server under the task's trust now.
 */
function retireOtherTrust(state: BrokerState, e: BrowserConnected, trusted: boolean, out: Outbox): void {
  for (const lease of state.table.all()) {
    if (lease.sessionId !== e.sessionId || lease.language !== e.language || lease.userId !== e.userId || lease.ownerKind !== (e.ownerKind ?? 'person'))
      continue;
    if (isDetached(lease) && lease.trustWorkspaceTools !== trusted) endGracefully(state, lease, 'trust_changed', undefined, out);
  }
}

function attach(state: BrokerState, lease: Lease, attachmentId: AttachmentId, via: AttachReason, out: Outbox): void {
  if (lease.detachedAt !== undefined) {
    out.cancel(timerIdOf({ kind: 'deadline', leaseId: lease.id, epoch: lease.deadline.currentEpoch }));
    lease.deadline.disarm();
    lease.detachedAt = undefined;
  }
  const attachment = newAttachment(lease, attachmentId, out.now);
  lease.attachment = attachment;
  state.attachments.set(attachmentId, lease.id);
  out.log(via === 'new_lease' ? 'attach' : 'reattach', via, lease.language);
  const phase = lease.phase;
  if (phase.kind === 'starting') {
    if (phase.installStatus) out.toBrowser(attachmentId, phase.installStatus);
    return;
  }
  // A releasing lease is never claimed, so one being attached to runs on its host.
  if (phase.kind === 'running') out.toBrowser(attachmentId, readyFrame(lease, phase.host, attachment));
}

/** The attachment ended (socket closed, stuck, or misbehaving): the lease lives on, detached. */
export function detach(state: BrokerState, lease: Lease, reason: DetachReason, out: Outbox): void {
  const attachment = lease.attachment;
  if (!attachment) return;
  lease.attachment = undefined;
  state.attachments.delete(attachment.id);
  if (lease.init.onDetach(attachment.generation).sendInitialized) sendInitialized(contextFor(state, out), lease);
  for (const entry of lease.requests.drainGeneration(attachment.generation)) {
    out.cancel(entry.timerId);
    out.toServer(lease.id, notification('$/cancelRequest', { id: entry.serverId }));
  }
  answerForwardedLocally(contextFor(state, out), lease, attachment.generation);
  for (const uri of attachment.documents.closeAll()) {
    out.toServer(lease.id, notification('textDocument/didClose', { textDocument: { uri } }));
  }
  lease.detachedAt = out.now;
  out.log('detach', reason, lease.language);
  if (exceedsRetainedLimit(lease)) return endGracefully(state, lease, 'state_limit', undefined, out);
  armDetachedDeadline(state, lease, out);
}

/** A detached lease ends after the detached deadline unless a browser reattaches first. */
export function armDetachedDeadline(state: BrokerState, lease: Lease, out: Outbox): void {
  const epoch = lease.deadline.arm();
  out.arm({ kind: 'deadline', leaseId: lease.id, epoch }, state.timing.detachedDeadlineMs);
}

function browserGone(state: BrokerState, attachmentId: AttachmentId, why: DetachReason, out: Outbox): void {
  if (state.probes.take(attachmentId)) {
    // It left while its hinted lease's holder was being asked: nothing was started for it.
    return out.cancel(timerIdOf({ kind: 'holderProbe', newcomer: attachmentId }));
  }
  const found = attachmentOf(state, attachmentId);
  if (!found) return; // an ended generation: it can no longer touch anything (S33)
  const { lease } = found;
  if (why === 'write_timeout') out.closeBrowser(attachmentId, CloseCode.TransportFailure);
  if (lease.phase.kind === 'releasing') {
    // The release goes on without anyone to acknowledge it to.
    lease.attachment = undefined;
    state.attachments.delete(attachmentId);
    delete lease.phase.release.waiter;
    return;
  }
  detach(state, lease, why, out);
}
