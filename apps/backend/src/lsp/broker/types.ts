/**
 * The lease broker's vocabulary: the events it consumes and the effects it asks for.
 *
 * Everything here is plain data. The broker never touches a socket, a timer or a clock; the wiring
 * around it turns effects into I/O and I/O into events, and passes `now` (epoch ms) with each event.
 */
import type {
  BadInputCloseCode,
  CloseCode,
  JsonRpcId,
  JsonRpcMessage,
  LanguageId,
  NestingScan,
  ParsedFrame,
  PersistedLease,
  ReleaseReason,
  RpcEnvelope,
  StatusFrame,
  UserSettings,
  WorkspaceIdentity,
} from '@kandev/protocol';

export type AttachmentId = string;
export type LeaseId = string;
export type SessionId = string;
export type UserId = string;
/**
 * Who a lease serves: a person's browser tab, or an agent's MCP client (docs/agents.md). Both count
 * against capacity; an agent's new lease never evicts a person's, and neither claims the other's.
 */
export type LeaseOwnerKind = 'person' | 'agent';
export type TimerId = string;

/** packages/protocol's; re-exported so the broker's modules keep one vocabulary import. */
export type { JsonRpcId, JsonRpcMessage };

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * A browser WebSocket was accepted for `/lsp/:sessionId?language=L[&lease=ID]` after the gateway
 * checked the caller and the language. Attachment ids are minted by the wiring, one per socket,
 * never reused.
 */
export interface BrowserConnected {
  type: 'browserConnected';
  attachmentId: AttachmentId;
  sessionId: SessionId;
  language: LanguageId;
  userId: UserId;
  /** The `lease` query parameter: routes, never authorizes. */
  leaseHint?: string;
  /** false for remote_docker, ssh, sprites: closed 4004 before anything starts. */
  executorSupported: boolean;
  /** The user's persisted settings as the store has them now. */
  settings: UserSettings;
  /** The task's "Trust this workspace's tools" switch now; absent means not trusted. */
  trustWorkspaceTools?: boolean;
  /** Absent: a person's. */
  ownerKind?: LeaseOwnerKind;
}

/**
 * The original text of a decoded browser message and where its top-level id sits in it (from the
 * scan, only when the id is usable): the broker relays the text, with its id spliced, instead of
 * re-encoding the message.
 */
export interface RawText {
  text: string;
  /** The UTF-8 bytes the message arrived as, when the wiring kept them: relayed as they are. */
  bytes?: Uint8Array;
  idSpan?: readonly [number, number];
}

/**
 * A JSON-RPC message from the server that the wiring did not decode: its text and the envelope a
 * scan read from it (shallow enough, one balanced object, jsonrpc 2.0). The broker relays it as
 * text when it only passes it on, and decodes it when it owns its method (or its id).
 */
export interface RawRpcFrame {
  kind: 'raw';
  text: string;
  /** The UTF-8 bytes the message arrived as, when the wiring kept them: relayed as they are. */
  bytes?: Uint8Array;
  envelope: RpcEnvelope;
  scan: NestingScan;
}

export interface BrowserFrameEvent {
  type: 'browserFrame';
  attachmentId: AttachmentId;
  frame: ParsedFrame & { raw?: RawText };
}
export interface BrowserClosed {
  type: 'browserClosed';
  attachmentId: AttachmentId;
}
/** A write to this browser did not drain within the 5 s deadline: it is detached, never waited for. */
export interface BrowserWriteTimedOut {
  type: 'browserWriteTimedOut';
  attachmentId: AttachmentId;
}
/** A frame from the task-host stream: installing/installed/install_failed/ready, or JSON-RPC. */
export interface UpstreamFrameEvent {
  type: 'upstreamFrame';
  leaseId: LeaseId;
  frame: ParsedFrame | RawRpcFrame;
}
/**
 * The task-host stream of a lease is gone: agentctl's close code (4001, 4003, 4006, 4007, 4008,
 * 1001, ...), 4002 when the wiring could not reach the session's agentctl at all, or the local
 * stack's code (1006) when the transport died.
 */
export interface UpstreamClosed {
  type: 'upstreamClosed';
  leaseId: LeaseId;
  code: number;
}
export interface TimerFired {
  type: 'timerFired';
  timerId: TimerId;
}
/** The holder asked by `probeBrowser` for `newcomer` answered its ping: it is alive (holderProbe.ts). */
export interface HolderAnswered {
  type: 'holderAnswered';
  newcomer: AttachmentId;
}
/** The holder's socket gave up on the ping (no answer in its wait, or it is gone): it counts as dead. */
export interface HolderSilent {
  type: 'holderSilent';
  newcomer: AttachmentId;
}
export interface SettingsChanged {
  type: 'settingsChanged';
  userId: UserId;
  settings: UserSettings;
}
/** The session's task host stopped (or is stopping): agentctl reaps every process it owns. */
export interface SessionStopped {
  type: 'sessionStopped';
  sessionId: SessionId;
}
export interface Shutdown {
  type: 'shutdown';
}

/**
 * A lease a previous backend process held, rebuilt after a restart from what that process
 * persisted and from agentctl's account of the stream (docs/restarts.md). It comes back detached.
 */
export interface LeaseAdopted {
  type: 'leaseAdopted';
  lease: AdoptedLeaseState;
  /** The user's persisted settings now (the server is told if they changed meanwhile). */
  settings: UserSettings;
}

/** A persisted lease (the protocol's one shape) with agentctl's account of its stream. */
export type AdoptedLeaseState = PersistedLease & {
  /** Documents the server still has open (the dead backend's attachment), with their versions. */
  openDocuments: readonly { uri: string; version: number }[];
  /** The highest request id the server was sent: this broker's ids start above it. */
  maxRequestId: number;
};

/** The event families, each reduced by a module of its own (see README.md, "Where an event goes"). */
/** A browser socket arrives or goes (attachments.ts). */
export type AttachmentEvent = BrowserConnected | BrowserClosed | BrowserWriteTimedOut | HolderAnswered | HolderSilent;
/** A frame from an attached browser (browserMessages.ts). */
export type BrowserMessageEvent = BrowserFrameEvent;
/** A frame from a lease's task-host stream, or its close (serverMessages.ts). */
export type ServerEvent = UpstreamFrameEvent | UpstreamClosed;
/** Timers, settings, stops and adoption after a restart (lifecycle.ts). */
export type LifecycleEvent = TimerFired | SettingsChanged | SessionStopped | Shutdown | LeaseAdopted;

export type BrokerEvent = AttachmentEvent | BrowserMessageEvent | ServerEvent | LifecycleEvent;

// ---------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------

/** Close codes the broker puts on a browser socket (agentctl's start codes pass through). */
export type BrowserCloseCode = CloseCode | typeof BadInputCloseCode.InvalidPayload;
/** 1000 after a release, 1001 on shutdown or session stop, 1007 on a malformed upstream frame. */
export type UpstreamCloseCode = typeof CloseCode.Normal | typeof CloseCode.GoingAway | typeof BadInputCloseCode.InvalidPayload;

export type BrowserOutFrame = JsonRpcMessage | StatusFrame;

export type Effect =
  | { type: 'sendToBrowser'; attachmentId: AttachmentId; frame: BrowserOutFrame }
  | { type: 'closeBrowser'; attachmentId: AttachmentId; code: BrowserCloseCode }
  /**
   * Ping this browser (the holder of a hinted lease) and report `holderAnswered` for `newcomer` on
   * its pong, or `holderSilent` when none comes within `timeoutMs`; the broker's own deadline
   * decides too, whichever comes first.
   */
  | { type: 'probeBrowser'; attachmentId: AttachmentId; newcomer: AttachmentId; timeoutMs: number }
  /** Drop this browser's connection without a close handshake (a half-open socket takes none). */
  | { type: 'terminateBrowser'; attachmentId: AttachmentId }
  /**
   * Start or resume the session's task host if needed and open its LSP stream. Issued only after
   * admission (executor supported, capacity) succeeded. From here until `releaseSlot` the lease
   * pins its task host.
   */
  | { type: 'openUpstream'; leaseId: LeaseId; sessionId: SessionId; language: LanguageId; autoInstall: boolean; trustWorkspaceTools: boolean }
  /** A re-adopted lease: resume agentctl's live stream `stream` (no new server); pins like openUpstream. */
  | { type: 'resumeUpstream'; leaseId: LeaseId; sessionId: SessionId; language: LanguageId; trustWorkspaceTools: boolean; stream: number }
  | { type: 'sendToUpstream'; leaseId: LeaseId; message: JsonRpcMessage }
  /**
   * A message relayed as text, already serialized (a browser's or server's own bytes, id spliced).
   * `wire`, when the original bytes were kept: the same message as UTF-8 pieces the socket writes
   * as they are (no decode, no encode, no joined copy of a large message).
   */
  | { type: 'relayToBrowser'; attachmentId: AttachmentId; text: string; wire?: readonly Uint8Array[] }
  | { type: 'relayToUpstream'; leaseId: LeaseId; text: string; wire?: readonly Uint8Array[] }
  | { type: 'closeUpstream'; leaseId: LeaseId; code: UpstreamCloseCode }
  /**
   * Send `{"control":"release-stream"}` on the task-host stream: agentctl ends and reaps the server's
   * tree, answers `{"status":"reaped"}`, then closes the stream (the end of the release handshake).
   */
  | { type: 'releaseUpstream'; leaseId: LeaseId }
  /**
   * Send `{"control":"watched-files","watchers"}` on the task-host stream: the server's current
   * `workspace/didChangeWatchedFiles` watchers, which agentctl matches against the disk's changes.
   */
  | { type: 'watchFiles'; leaseId: LeaseId; watchers: unknown[] }
  /** Fire `timerFired(timerId)` at `atMs`. Re-arming an id is never asked; ids are unique. */
  | { type: 'armTimer'; timerId: TimerId; atMs: number }
  /** Best effort: a timer that fires anyway is recognized as stale and ignored. */
  | { type: 'cancelTimer'; timerId: TimerId }
  /** Emitted exactly once per lease, at the moment its terminal path is decided. */
  | { type: 'releaseSlot'; leaseId: LeaseId }
  /** One structured log line. No lease, session, task or user ids by design. */
  | { type: 'log'; event: LogEvent; reason: LogReason; language: LanguageId }
  /** A server start or an install finished: how long it took by the broker's clock, for /metrics. */
  | { type: 'measure'; measure: Measure; ms: number; ok: boolean };

export type EffectType = Effect['type'];

/** What `measure` effects time: a server's start (to `ready`) and an automatic install. */
export type Measure = 'server_start' | 'install';
export type MeasureEffect = Extract<Effect, { type: 'measure' }>;

// ---------------------------------------------------------------------------------------------
// Closed vocabularies for logs and metrics
// ---------------------------------------------------------------------------------------------

export const LOG_EVENTS = ['create', 'attach', 'detach', 'reattach', 'release', 'expiry', 'eviction', 'exit', 'restart', 'adopt'] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];

/** Why a lease ended. Each lease ends exactly once, with exactly one of these. */
export const END_REASONS = [
  'stop', // browser release, reason "stop"
  'editor_idle', // browser release, reason "editor_idle"
  'expiry', // one hour detached
  'eviction', // oldest detached lease, to admit a new one
  'server_exit', // agentctl closed 4006: the language server exited
  'server_stdin_timeout', // agentctl closed 4006 after it ended a server that took nothing from its stdin for the stdin cutoff
  'start_failed', // agentctl closed 4001/4003/4007/4008: the server never ran
  'task_host_unavailable', // 4002 (agentctl unreachable) or 1001 (agentctl torn down)
  'upstream_lost', // any other close or a malformed upstream frame: the server may still run
  'state_limit', // retained state would exceed 4 MiB: the lease cannot be resumed, so it is released on detach
  'session_stopped',
  'shutdown',
  'trust_changed', // a detached lease started under the other trust, released when its session reconnects
] as const;
export type EndReason = (typeof END_REASONS)[number];

export const ATTACH_REASONS = ['new_lease', 'lease_hint', 'recent_detached'] as const;
export const DETACH_REASONS = ['browser_closed', 'write_timeout', 'invalid_frame'] as const;
/**
 * How a release handshake finished: agentctl reported the tree gone, reported that something
 * survived its kill deadline, or never reported (stream lost, or we stopped waiting).
 */
export const EXIT_REASONS = ['reaped', 'reap_incomplete', 'reap_timeout'] as const;
export const LOG_REASONS = [
  ...ATTACH_REASONS,
  ...DETACH_REASONS,
  ...EXIT_REASONS,
  'detached_deadline',
  'capacity',
  'backend_restarted',
  ...END_REASONS,
] as const;
export type LogReason = (typeof LOG_REASONS)[number];
export type AttachReason = (typeof ATTACH_REASONS)[number];
export type DetachReason = (typeof DETACH_REASONS)[number];

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

export interface BrokerOptions {
  /** Lease slots, attached or detached (KANDEV_LSP_MAX_CONNECTIONS; defaults to DEFAULT_MAX_LEASES here, sized from memory by the config). */
  maxLeases?: number;
  /** Mints opaque lease ids (random in production, a counter in tests). */
  newLeaseId: () => LeaseId;
  /** Detached deadline, default one hour. */
  detachedDeadlineMs?: number;
  /** How long a released server gets to answer `shutdown`, default 5 s. */
  shutdownWaitMs?: number;
  /** How long agentctl gets to confirm the stream closed (process tree reaped), default 10 s. */
  reapWaitMs?: number;
  /** Restarts of a crashed server within SERVER_RESTART_WINDOW_MS, default SERVER_RESTART_LIMIT (5). */
  restartLimit?: number;
  /** Per browser request, default 30 s (BROWSER_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** How long the holder of a hinted lease gets to answer a ping, default 3 s (holderProbe.ts). */
  holderProbeMs?: number;
}

/** A lease's release in progress (release.ts drives it; the lease's `releasing` phase holds it). */
export type ReleaseProcess = ReleaseParties &
  /** `shutdown` sent to an initialized server; waiting for its answer or the shutdown timer. */
  (
    | { step: 'shutting_down'; shutdownServerId: number }
    /**
     * The stream is being closed. `awaitsReport`: a server process exists, so only agentctl's
     * `reaped` report confirms the end (not the close).
     */
    | { step: 'reaping'; awaitsReport: boolean }
  );

/** Who hears how a release ended, whatever step it is at. */
export interface ReleaseParties {
  reason: EndReason;
  /** The browser that asked, waiting for `released`; gone if it closed meanwhile. */
  waiter?: AttachmentId;
  /** The reason echoed in `released` (only for a browser-initiated release). */
  ack?: ReleaseReason;
}

/**
 * A lease's server restart in progress (restart.ts), one step at a time; here because lease.ts
 * holds one (no import cycle).
 */
export type RestartProcess =
  /** The crashed process is gone; the backoff timer runs. */
  | { step: 'backoff'; attempt: number }
  /** The backoff is over and a new task-host stream was asked for. */
  | { step: 'opening'; attempt: number }
  /** agentctl said `ready` for the new process; the broker's own `initialize` awaits its answer. */
  | { step: 'initializing'; attempt: number; initServerId: number; host: WorkspaceIdentity };
