/**
 * The lifecycle family: timers coming due (detached deadline, request budget, shutdown and reap
 * waits, restart backoff, holder probe), saved settings, a session's or the backend's stop, and a
 * previous backend's lease adopted after a restart. A pure reducer: (state, event, now in the
 * outbox) -> state changed in place + effects.
 */
import { CloseCode, RpcErrorCode, requestDeadlineData } from '@kandev/protocol';
import { adoptedLease } from './adoption.js';
import { armDetachedDeadline, holderProbed, openUpstream } from './attachments.js';
import { observeSettings, pushConfigIfChanged } from './configPush.js';
import { errorResponse, notification } from './jsonrpc.js';
import { isDetached, type Lease } from './lease.js';
import { endAbruptly, endGracefully, forget } from './leaseEnd.js';
import type { Outbox } from './outbox.js';
import { afterShutdown, finishRelease } from './release.js';
import { contextFor, type BrokerState } from './state.js';
import type { TimerPurpose } from './timers.js';
import { setTraceIfChanged } from './trace.js';
import type { LeaseAdopted, LifecycleEvent, SessionId } from './types.js';

export function reduceLifecycleEvent(state: BrokerState, event: LifecycleEvent, out: Outbox): void {
  switch (event.type) {
    case 'timerFired':
      return timerFired(state, event.timerId, out);
    case 'settingsChanged':
      return observeSettings(state, event.userId, event.settings, out);
    case 'sessionStopped':
      return sessionStopped(state, event.sessionId, out);
    case 'shutdown':
      return shutdown(state, out);
    case 'leaseAdopted':
      return adopt(state, event, out);
  }
}

function timerFired(state: BrokerState, timerId: string, out: Outbox): void {
  const purpose = state.timers.take(timerId);
  if (!purpose) return; // cancelled or already handled: stale
  if (purpose.kind === 'holderProbe') return holderProbed(state, purpose.newcomer, false, out);
  const lease = state.table.get(purpose.leaseId);
  if (!lease) return;
  leaseTimerFired(state, lease, purpose, out);
}

function leaseTimerFired(state: BrokerState, lease: Lease, purpose: Exclude<TimerPurpose, { kind: 'holderProbe' }>, out: Outbox): void {
  switch (purpose.kind) {
    case 'deadline':
      // A deadline armed before a reattach can never close the lease: its epoch is gone.
      if (!isDetached(lease) || !lease.deadline.isCurrent(purpose.epoch)) return;
      return endGracefully(state, lease, 'expiry', undefined, out);
    case 'request': {
      const entry = lease.requests.take(purpose.serverId);
      if (!entry) return;
      out.toServer(lease.id, notification('$/cancelRequest', { id: entry.serverId }));
      const attachment = lease.attachment;
      if (attachment && attachment.generation === entry.generation) {
        // `data` tells the page this was the deadline (not a server dropping the work), and how long it was.
        const deadlineMs = state.timing.requestTimeoutMs;
        const message = `the language server did not answer within ${deadlineMs / 1000} s`;
        out.toBrowser(attachment.id, errorResponse(entry.browserId, RpcErrorCode.RequestCancelled, message, requestDeadlineData(deadlineMs)));
      }
      return;
    }
    case 'shutdown':
      return afterShutdown(lease, out, state.timing);
    case 'restart': {
      const phase = lease.phase;
      if (phase.kind !== 'starting' || phase.restart?.step !== 'backoff' || phase.restart.attempt !== purpose.attempt) return;
      if (lease.endReason !== undefined) return;
      phase.restart = { step: 'opening', attempt: purpose.attempt };
      // The restarted server runs under the trust the lease started with, like the first one.
      return openUpstream(state, lease, out);
    }
    case 'reap':
      if (lease.phase.kind !== 'releasing') return;
      finishRelease(lease, 'reap_timeout', out);
      return forget(state, lease, out);
  }
}

function sessionStopped(state: BrokerState, sessionId: SessionId, out: Outbox): void {
  for (const lease of state.table.ofSession(sessionId)) {
    endAbruptly(state, lease, 'session_stopped', CloseCode.Unavailable, out, CloseCode.GoingAway);
  }
}

function shutdown(state: BrokerState, out: Outbox): void {
  state.stopped = true;
  for (const lease of state.table.all()) endAbruptly(state, lease, 'shutdown', CloseCode.GoingAway, out, CloseCode.GoingAway);
}

/**
 * A lease of a previous backend process comes back detached on its very server: its stream is
 * resumed, the documents that process's browser had open are closed (as on any detach), and the
 * server hears of settings saved meanwhile. Its hint routes to it again; its deadline starts now.
 */
function adopt(state: BrokerState, e: LeaseAdopted, out: Outbox): void {
  if (state.stopped || state.table.get(e.lease.id)) return;
  const lease = adoptedLease(e.lease, ++state.seq);
  state.table.add(lease);
  out.push({
    type: 'resumeUpstream',
    leaseId: lease.id,
    sessionId: lease.sessionId,
    language: lease.language,
    trustWorkspaceTools: lease.trustWorkspaceTools,
    stream: e.lease.stream,
  });
  out.log('adopt', 'backend_restarted', lease.language);
  for (const doc of e.lease.openDocuments) out.toServer(lease.id, notification('textDocument/didClose', { textDocument: { uri: doc.uri } }));
  state.settings.observe(lease.userId, e.settings);
  pushConfigIfChanged(state, lease, out);
  setTraceIfChanged(contextFor(state, out), lease);
  lease.detachedAt = out.now;
  armDetachedDeadline(state, lease, out);
}
