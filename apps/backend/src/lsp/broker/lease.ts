/**
 * One lease: one task-host stream, one language-server process, keyed by (session, language,
 * lease id), owned by one user, attached to at most one browser at a time. Everything the broker
 * retains for a browser that comes back lives here.
 */
import {
  MAX_RETAINED_LEASE_STATE_BYTES,
  type InstalledFrame,
  type InstallingFrame,
  type LanguageId,
  type ServerExitCause,
  type TraceLevel,
  type TrustedToolPins,
  type WorkspaceIdentity,
  ProgressTracker,
} from '@kandev/protocol';
import { DetachDeadline } from './deadlines.js';
import { DocumentSync, DocumentVersions } from './documents.js';
import { InitializeExchange } from './initialize.js';
import { jsonBytes } from './jsonrpc.js';
import { RegistrationSet } from './registrations.js';
import { RequestMap } from './requestMap.js';
import { ForwardedServerRequests } from './serverRequests.js';
import { ServerOutputLog } from './serverOutput.js';
import type { AttachmentId, EndReason, LeaseId, ReleaseProcess, RestartProcess, SessionId, UserId } from './types.js';
import type { LeaseTrust } from './workspaceTrust.js';

/**
 * Where a lease is in its life, with exactly the state that phase has:
 *
 * starting:  upstream opened, agentctl resolving/installing/launching (no `ready` yet), or a
 *            crashed server being restarted (`restart`)
 * running:   the process launched on `host`; LSP traffic flows
 * releasing: a release handshake is under way (the slot is already released); `host` is set when
 *            a process was running when it began
 */
export type LeasePhase =
  | {
      kind: 'starting';
      /** Latest installing/installed frame, replayed to a browser that attaches meanwhile. */
      installStatus?: InstallingFrame | InstalledFrame;
      /** When agentctl reported `installing` (the install's clock). */
      installingSince?: number;
      /** When the server's own start began: the lease's creation, or the end of its install. */
      startingSince?: number;
      restart?: RestartProcess;
    }
  | { kind: 'running'; host: WorkspaceIdentity }
  | { kind: 'releasing'; release: ReleaseProcess; host?: WorkspaceIdentity };

export type LeasePhaseKind = LeasePhase['kind'];

/** One browser socket on a lease: one generation. */
export interface Attachment {
  id: AttachmentId;
  generation: number;
  /** Got `ready{resumed:true}`: diagnostics wait for `synchronized`. */
  resumed: boolean;
  documents: DocumentSync;
  attachedAt: number;
}

export interface Lease {
  readonly id: LeaseId;
  readonly sessionId: SessionId;
  readonly language: LanguageId;
  readonly userId: UserId;
  readonly createdAt: number;
  /** Creation order, to break ties deterministically. */
  readonly seq: number;
  /** The task's workspace trust when the lease was created; fixed for the lease's life. */
  readonly trustWorkspaceTools: boolean;
  /** Task-host tools agentctl pinned (ready frame), used while untrusted. */
  trustedTools?: TrustedToolPins;
  /** agentctl's id of the stream the server runs on (ready frame): what a restarted backend resumes. */
  stream?: number;
  phase: LeasePhase;
  attachment?: Attachment;
  /** Set while detached (and not releasing). */
  detachedAt?: number;
  /** Last generation handed out; each attachment gets the next. */
  generation: number;
  /** Set once, when the terminal path is decided; the slot is released at that moment. */
  endReason?: EndReason;
  /** Next id the broker uses towards the server (browser requests, initialize, shutdown). */
  nextServerId: number;
  /** Per server process: replaced when a crashed server is restarted (restart.ts). */
  init: InitializeExchange;
  readonly requests: RequestMap;
  serverRequests: ForwardedServerRequests;
  registrations: RegistrationSet;
  progress: ProgressTracker;
  readonly versions: DocumentVersions;
  readonly deadline: DetachDeadline;
  /** Fingerprint of the language config the server was last told about. */
  configFingerprint?: string;
  /** When the server exited unexpectedly (epoch ms), for the restart budget. */
  crashes: number[];
  /** The end of the last exited server's stderr (agentctl's server_exited frame). */
  stderrTail?: string;
  /** Why agentctl ended the last exited server itself (its server_exited frame), if it did. */
  exitCause?: ServerExitCause;
  /** The server's recent log, trace and stderr lines (serverOutput.ts), kept across restarts. */
  readonly output: ServerOutputLog;
  /** The trace level the server was last asked for (initialize `trace`, `$/setTrace`); trace.ts. */
  traceLevel?: TraceLevel;
}

export function createLease(init: {
  id: LeaseId;
  sessionId: SessionId;
  language: LanguageId;
  userId: UserId;
  createdAt: number;
  seq: number;
  trustWorkspaceTools?: boolean;
}): Lease {
  return {
    ...init,
    trustWorkspaceTools: init.trustWorkspaceTools ?? false,
    phase: { kind: 'starting' },
    generation: 0,
    nextServerId: 1,
    init: new InitializeExchange(),
    requests: new RequestMap(),
    serverRequests: new ForwardedServerRequests(),
    registrations: new RegistrationSet(MAX_RETAINED_LEASE_STATE_BYTES),
    progress: new ProgressTracker(),
    versions: new DocumentVersions(),
    deadline: new DetachDeadline(),
    crashes: [],
    output: new ServerOutputLog(),
  };
}

export function allocServerId(lease: Lease): number {
  return lease.nextServerId++;
}

export function newAttachment(lease: Lease, id: AttachmentId, now: number): Attachment {
  lease.generation += 1;
  const resumed = lease.init.answered;
  return { id, generation: lease.generation, resumed, documents: new DocumentSync(lease.versions, resumed), attachedAt: now };
}

/** What a resuming browser would be handed, in bytes; over 4 MiB the lease cannot be resumed. */
export function retainedBytes(lease: Lease): number {
  return (
    jsonBytes(lease.init.result) +
    lease.registrations.retainedBytes +
    jsonBytes(lease.progress.snapshot()) +
    lease.versions.retainedBytes +
    lease.output.retainedBytes +
    jsonBytes(hostOf(lease))
  );
}

export function exceedsRetainedLimit(lease: Lease): boolean {
  return retainedBytes(lease) > MAX_RETAINED_LEASE_STATE_BYTES;
}

/** Live and holding a slot: counted by capacity. */
export function holdsSlot(lease: Lease): boolean {
  return lease.endReason === undefined;
}

/** Detached, live, not releasing: may be reattached or evicted. */
export function isDetached(lease: Lease): boolean {
  return holdsSlot(lease) && lease.phase.kind !== 'releasing' && lease.attachment === undefined;
}

/** What workspaceTrust.ts decides on for this lease. */
export function leaseTrust(lease: Lease): LeaseTrust {
  return { language: lease.language, trusted: lease.trustWorkspaceTools, pins: lease.trustedTools };
}

/**
 * The workspace of the process the lease runs now, if one launched: running, being released after
 * it ran, or restarted and awaiting the broker's `initialize`.
 */
export function hostOf(lease: Lease): WorkspaceIdentity | undefined {
  const phase = lease.phase;
  switch (phase.kind) {
    case 'running':
      return phase.host;
    case 'releasing':
      return phase.host;
    case 'starting':
      return phase.restart?.step === 'initializing' ? phase.restart.host : undefined;
  }
}

/** The crash restart under way, if any (only a starting lease has one). */
export function restartOf(lease: Lease): RestartProcess | undefined {
  return lease.phase.kind === 'starting' ? lease.phase.restart : undefined;
}

/** The release handshake under way, if any. */
export function releaseOf(lease: Lease): ReleaseProcess | undefined {
  return lease.phase.kind === 'releasing' ? lease.phase.release : undefined;
}

/** The id of the `shutdown` the release sent, while its answer is awaited. */
export function shutdownServerIdOf(lease: Lease): number | undefined {
  const release = releaseOf(lease);
  return release?.step === 'shutting_down' ? release.shutdownServerId : undefined;
}
