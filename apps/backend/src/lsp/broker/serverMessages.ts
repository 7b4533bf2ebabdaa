/**
 * The server-messages family: a frame from a lease's task-host stream (JSON-RPC from the server,
 * agentctl's status frames: install, ready, stderr, exit, reaped) or that stream's close. A pure
 * reducer: (state, event, now in the outbox) -> state changed in place + effects. A raw frame the
 * broker only passes on is relayed as text without being decoded (the per-message hot path).
 */
import {
  BadInputCloseCode,
  CloseCode,
  parseFrame,
  parseTrustedToolPins,
  readyFrameIdentity,
  type ParsedFrame,
  type StatusFrame,
  type TrustedToolPins,
  type WireShapeResult,
} from '@kandev/protocol';
import { classify } from './jsonrpc.js';
import { releaseOf, restartOf, newAttachment, type Lease } from './lease.js';
import { endAbruptly, forget } from './leaseEnd.js';
import { keepStderr } from './leaseOutput.js';
import type { Outbox } from './outbox.js';
import { readyFrame } from './readyFrame.js';
import { finishRelease, outcomeOfClose } from './release.js';
import { admitRestart, beginRestart, boundedTail, initializeRestarted, serverExitedFrame } from './restart.js';
import { relayServerRaw, routeServerMessage, sendInitialized } from './serverRpc.js';
import { contextFor, type BrokerState } from './state.js';
import type { LeaseId, RawRpcFrame, RestartProcess, ServerEvent } from './types.js';
import { classifyUpstreamClose } from './upstreamClose.js';

type InitializingRestart = Extract<RestartProcess, { step: 'initializing' }>;
type StartingPhase = Extract<Lease['phase'], { kind: 'starting' }>;

export function reduceServerEvent(state: BrokerState, event: ServerEvent, out: Outbox): void {
  if (event.type === 'upstreamFrame') return upstreamFrame(state, event.leaseId, event.frame, out);
  upstreamClosed(state, event.leaseId, event.code, out);
}

function upstreamFrame(state: BrokerState, leaseId: LeaseId, frame: ParsedFrame | RawRpcFrame, out: Outbox): void {
  const lease = state.table.get(leaseId);
  if (!lease) return;
  switch (frame.kind) {
    case 'raw':
      // Relayed undecoded when the broker only passes it on; otherwise decoded here, in full.
      if (relayServerRaw(contextFor(state, out), lease, frame)) return;
      return upstreamFrame(state, leaseId, parseFrame(frame.text, frame.scan), out);
    case 'invalid':
      return endAbruptly(state, lease, 'upstream_lost', CloseCode.TransportFailure, out, BadInputCloseCode.InvalidPayload);
    case 'control':
      return;
    case 'status':
      return hostStatus(state, lease, frame.frame, out);
    case 'jsonrpc': {
      const restart = restartOf(lease);
      const m = restart?.step === 'initializing' ? classify(frame.message) : undefined;
      if (restart?.step === 'initializing' && m?.kind === 'response' && m.id === restart.initServerId) {
        return finishRestart(state, lease, restart, m.ok, frame.message.result, out);
      }
      return routeServerMessage(contextFor(state, out), lease, frame.message);
    }
  }
}

/** The restarted server answered the broker's `initialize`: the lease runs again (restart.ts). */
function finishRestart(state: BrokerState, lease: Lease, restart: InitializingRestart, ok: boolean, result: unknown, out: Outbox): void {
  if (!ok) {
    lease.phase = { kind: 'starting' };
    if (lease.attachment) out.toBrowser(lease.attachment.id, serverExitedFrame(lease));
    return endAbruptly(state, lease, 'server_exit', CloseCode.ServerExited, out, CloseCode.Normal);
  }
  lease.init.onServerResponse(restart.initServerId, true, result);
  sendInitialized(contextFor(state, out), lease);
  lease.phase = { kind: 'running', host: restart.host };
  const attachment = lease.attachment;
  if (!attachment) return;
  // A new generation on the same socket: the browser resumes from the new result, as on a reattach.
  const next = newAttachment(lease, attachment.id, out.now);
  lease.attachment = next;
  out.toBrowser(next.id, readyFrame(lease, restart.host, next));
}

function hostStatus(state: BrokerState, lease: Lease, frame: StatusFrame, out: Outbox): void {
  if (frame.status === 'server_stderr') return keepStderr(lease, frame.lines, out);
  if (frame.status === 'server_exited') {
    lease.stderrTail = boundedTail(frame.stderrTail);
    lease.exitCause = frame.cause === 'stdin_timeout' ? frame.cause : undefined;
    return;
  }
  if (frame.status === 'reaped') {
    // Only the answer to our release-stream counts; agentctl closes the stream right after it.
    const release = releaseOf(lease);
    if (release?.step !== 'reaping' || !release.awaitsReport) return;
    finishRelease(lease, frame.clean === true ? 'reaped' : 'reap_incomplete', out);
    out.closeUpstream(lease.id, CloseCode.Normal);
    return forget(state, lease, out);
  }
  const phase = lease.phase;
  if (phase.kind !== 'starting') return; // status frames only precede `ready`
  const attachment = lease.attachment;
  switch (frame.status) {
    case 'installing':
    case 'installed':
      phase.installStatus = frame;
      if (frame.status === 'installing') phase.installingSince ??= out.now;
      else installEnded(phase, true, out);
      if (attachment) out.toBrowser(attachment.id, frame);
      return;
    case 'install_failed':
      installEnded(phase, false, out);
      if (attachment) out.toBrowser(attachment.id, frame);
      return;
    case 'ready': {
      // packages/protocol's one ready-frame rule: an invalid identity ends the lease (1007 upstream).
      const host = readyFrameIdentity(frame);
      if (!host.ok) return endAbruptly(state, lease, 'upstream_lost', CloseCode.TransportFailure, out, BadInputCloseCode.InvalidPayload);
      const stream = (frame as { stream?: unknown }).stream;
      if (typeof stream === 'number' && Number.isInteger(stream)) lease.stream = stream;
      // The same for the pins: a wrong one could let an untrusted server run the workspace's tools.
      const pins = readyFramePins(frame);
      if (!pins.ok) return endAbruptly(state, lease, 'upstream_lost', CloseCode.TransportFailure, out, BadInputCloseCode.InvalidPayload);
      if (pins.value) lease.trustedTools = pins.value;
      if (phase.restart) return initializeRestarted(contextFor(state, out), lease, host.identity);
      out.push({ type: 'measure', measure: 'server_start', ms: out.now - (phase.startingSince ?? lease.createdAt), ok: true });
      lease.phase = { kind: 'running', host: host.identity };
      if (attachment) out.toBrowser(attachment.id, readyFrame(lease, host.identity, attachment));
      return;
    }
    default:
      return;
  }
}

/** An install reported its end: timed from its `installing`, and the server's start begins now. */
function installEnded(phase: StartingPhase, ok: boolean, out: Outbox): void {
  if (phase.installingSince === undefined) return;
  out.push({ type: 'measure', measure: 'install', ms: out.now - phase.installingSince, ok });
  phase.installingSince = undefined;
  phase.startingSince = out.now;
}

function upstreamClosed(state: BrokerState, leaseId: LeaseId, code: number, out: Outbox): void {
  const lease = state.table.get(leaseId);
  if (!lease) return;
  if (lease.phase.kind === 'releasing') {
    finishRelease(lease, outcomeOfClose(lease), out);
    return forget(state, lease, out);
  }
  if (code === CloseCode.ServerExited) {
    const attempt = admitRestart(lease, out.now, state.timing.restartLimit);
    if (attempt !== undefined) return beginRestart(contextFor(state, out), lease, attempt);
    if (lease.attachment) out.toBrowser(lease.attachment.id, serverExitedFrame(lease));
  }
  const { reason, browserCode } = classifyUpstreamClose(code);
  endAbruptly(state, lease, reason === 'server_exit' && lease.exitCause === 'stdin_timeout' ? 'server_stdin_timeout' : reason, browserCode, out);
}

/** The ready frame's `trustedTools`, checked by the protocol's schema (absent: undefined). */
function readyFramePins(frame: object): WireShapeResult<TrustedToolPins | undefined> {
  const pins = (frame as { trustedTools?: unknown }).trustedTools;
  return pins === undefined ? { ok: true, value: undefined } : parseTrustedToolPins(pins, 'ready frame');
}
