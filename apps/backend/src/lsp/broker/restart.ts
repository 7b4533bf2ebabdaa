/**
 * The crash budget (docs/architecture.md section 3): a server that exits unexpectedly (agentctl closes 4006) while
 * leased and initialized is restarted by its lease, at most `restartLimit` (SERVER_RESTART_LIMIT: 5) times within
 * SERVER_RESTART_WINDOW_MS, after a backoff:
 *
 *   4006 -> `restarting{attempt,of,stderrTail}` to the attached browser, its pending requests
 *           cancelled, per-process state dropped (initialize, registrations, progress, forwarded
 *           server requests), phase `starting`
 *        -> backoff timer -> openUpstream (a new task-host stream, a new process)
 *        -> agentctl `ready` -> the broker sends `initialize` itself, with the params the browser
 *           once gave (it owns that exchange), then `initialized`
 *        -> `ready{resumed:true}` to the attached browser on the same socket (a new generation):
 *           it reopens its documents and sends attachment-ready, exactly as on a reattach.
 *
 * Past the budget, or when the restarted server fails to initialize, the lease ends with 4006 (a
 * `server_exited` frame with the stderr tail first). Document versions are the lease's, so they
 * keep increasing across processes.
 */
import { configuredTraceLevel, withTrace } from './trace.js';
import {
  MAX_RETAINED_LEASE_STATE_BYTES,
  SERVER_RESTART_WINDOW_MS,
  SERVER_STDERR_TAIL_BYTES,
  type ServerExitedFrame,
  type WorkspaceIdentity,
  type InstallingFrame,
  type InstalledFrame,
  RpcErrorCode,
  ProgressTracker,
} from '@kandev/protocol';
import type { EventContext } from './context.js';
import { InitializeExchange } from './initialize.js';
import { errorResponse, request } from './jsonrpc.js';
import { allocServerId, restartOf, type Lease } from './lease.js';
import { RegistrationSet } from './registrations.js';
import { ForwardedServerRequests } from './serverRequests.js';

/** Defined in types.ts: lease.ts holds one, and this module works on leases (no import cycle). */
export type { RestartProcess } from './types.js';

/** Backoff before restart `attempt` (1-based): 1 s, 2 s, 4 s, 8 s, 16 s. */
export function restartBackoffMs(attempt: number): number {
  return 1_000 * 2 ** Math.min(Math.max(attempt - 1, 0), 4);
}

/**
 * Whether this exit may be answered with a restart, recording it in the budget: only a server that
 * was initialized (or one being restarted), and only while fewer than the limit fell in the window.
 * Returns the attempt number, or undefined when the lease must end.
 */
export function admitRestart(lease: Lease, now: number, limit: number): number | undefined {
  const initialized = lease.phase.kind === 'running' && lease.init.answered;
  if (!initialized && restartOf(lease) === undefined) return undefined;
  lease.crashes = lease.crashes.filter((at) => now - at < SERVER_RESTART_WINDOW_MS);
  if (lease.crashes.length >= limit) return undefined;
  lease.crashes.push(now);
  return lease.crashes.length;
}

/** The crash is within budget: tell the browser, drop the dead process's state, arm the backoff. */
export function beginRestart(ctx: EventContext, lease: Lease, attempt: number): void {
  const limit = ctx.timing.restartLimit;
  const { out } = ctx;
  const attachment = lease.attachment;
  if (attachment) {
    // Its documents were open on the dead process only; the browser reopens them after `ready`.
    attachment.documents.closeAll();
    for (const entry of lease.requests.drainGeneration(attachment.generation)) {
      out.cancel(entry.timerId);
      out.toBrowser(attachment.id, errorResponse(entry.browserId, RpcErrorCode.RequestCancelled, 'the language server is restarting'));
    }
    out.toBrowser(attachment.id, {
      status: 'restarting',
      language: lease.language,
      attempt,
      of: limit,
      ...(lease.stderrTail ? { stderrTail: lease.stderrTail } : {}),
      ...(lease.exitCause ? { cause: lease.exitCause } : {}),
    });
  }
  lease.serverRequests = new ForwardedServerRequests();
  lease.registrations = new RegistrationSet(MAX_RETAINED_LEASE_STATE_BYTES);
  lease.progress = new ProgressTracker();
  lease.configFingerprint = undefined;
  // A release now must not ask the dead process for `shutdown`: until the new one is ready, no host.
  lease.phase = { ...installStatusOf(lease), kind: 'starting', restart: { step: 'backoff', attempt } };
  out.log('restart', lease.exitCause === 'stdin_timeout' ? 'server_stdin_timeout' : 'server_exit', lease.language);
  out.arm({ kind: 'restart', leaseId: lease.id, attempt }, restartBackoffMs(attempt));
}

/** agentctl launched the new process on `host`: the broker initializes it as the browser once did. */
export function initializeRestarted(ctx: EventContext, lease: Lease, host: WorkspaceIdentity): void {
  const restart = restartOf(lease);
  if (!restart) return;
  const serverId = allocServerId(lease);
  lease.phase = {
    ...installStatusOf(lease),
    kind: 'starting',
    restart: { step: 'initializing', attempt: restart.attempt, initServerId: serverId, host },
  };
  const previous = lease.init;
  lease.init = InitializeExchange.replay(previous, serverId);
  // The owner's trace level now, which a `$/setTrace` may have changed since the first initialize.
  const traced = withTrace(previous.params ?? {}, configuredTraceLevel(ctx, lease));
  lease.traceLevel = traced.level;
  ctx.out.toServer(lease.id, request(serverId, 'initialize', traced.params));
}

/** A restart keeps the install frame a browser attaching meanwhile is shown. */
function installStatusOf(lease: Lease): { installStatus?: InstallingFrame | InstalledFrame } {
  return lease.phase.kind === 'starting' && lease.phase.installStatus ? { installStatus: lease.phase.installStatus } : {};
}

/** The frame that precedes a final 4006 to the browser, carrying the stderr tail when there is one. */
export function serverExitedFrame(lease: Lease): ServerExitedFrame {
  return {
    status: 'server_exited',
    language: lease.language,
    ...(lease.stderrTail ? { stderrTail: lease.stderrTail } : {}),
    ...(lease.exitCause ? { cause: lease.exitCause } : {}),
  };
}

/** agentctl's stderr tail, bounded again here: it is retained and forwarded to browsers. */
export function boundedTail(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= SERVER_STDERR_TAIL_BYTES) return value;
  // A cut through a multi-byte character decodes as U+FFFD: drop it rather than show it.
  return bytes
    .subarray(bytes.length - SERVER_STDERR_TAIL_BYTES)
    .toString('utf8')
    .replace(/^\uFFFD+/, '');
}
