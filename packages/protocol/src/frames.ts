import * as z from 'zod/mini';
import { MAX_JSON_DEPTH } from './bounds.js';
import { decodePrimitive } from './envelope.js';
import { scanJsonNesting, type NestingScan, type TopLevelMembers } from './jsonDepth.js';
import type { LanguageId } from './languages.js';
import { RpcErrorCode, isJsonRpcId, type JsonRpcId, type JsonRpcMessage } from './jsonRpc.js';
import { isRecord } from './records.js';
import type { ServerOutputFrame, ServerOutputLine, ServerStderrFrame } from './serverOutput.js';
import type { WorkspaceIdentity } from './readyFrame.js';
import type { ServerNetwork, TrustedToolPins } from './trustedTools.js';

/** Frames with `status` are ours; frames with `jsonrpc` are LSP (docs/architecture.md section 3). */
export interface InstallingFrame {
  status: 'installing';
  language: LanguageId;
  detail?: string;
}
export interface InstalledFrame {
  status: 'installed';
  language: LanguageId;
}
export interface InstallFailedFrame {
  status: 'install_failed';
  language: LanguageId;
  error: string;
}

/** What agentctl says once the server process launched. */
export interface HostReadyFrame extends WorkspaceIdentity {
  status: 'ready';
  language: LanguageId;
  /** Additive: only on the task-host stream, and only when the stream was opened untrusted. */
  trustedTools?: TrustedToolPins;
  /** Additive, task-host stream only: the stream's id there, so a later backend can resume it. */
  stream?: number;
}

export interface ProgressItemSnapshot {
  token: string | number;
  title: string;
  message?: string;
  percentage?: number;
  /** Epoch ms when `begin` arrived. */
  startedAt: number;
}

export interface ProgressSnapshot {
  active: ProgressItemSnapshot[];
  lastEnded?: { title: string; endedAt: number };
}

export interface ReadyFrame extends HostReadyFrame {
  lease: string;
  resumed: boolean;
  /**
   * Only for a lease of an untrusted workspace: whether its server runs off the network (`off`) or
   * this task host could not cut it off (`unavailable`), so the page can say which.
   */
  network?: ServerNetwork;
  /** Only when resumed: what the broker retained for the browser to rebuild from. */
  initializeResult?: unknown;
  registrations?: unknown[];
  progress?: ProgressSnapshot;
  /** The server's recent output the lease kept (serverOutput.ts), oldest first; absent when none. */
  output?: ServerOutputLine[];
}

/**
 * agentctl -> backend only, the last frame of a task-host stream that was asked to release (a
 * `release-stream` control): the server's whole process tree is gone (`clean`), or agentctl gave up
 * after the kill deadline with something still running (`clean: false`). The broker answers the
 * browser `released` only after a clean report (docs/architecture.md section 4).
 */
export interface ReapedFrame {
  status: 'reaped';
  clean: boolean;
}

export interface SynchronizedFrame {
  status: 'synchronized';
}

/**
 * The server exited unexpectedly while leased and the lease restarts it (docs/architecture.md section 3): attempt
 * `attempt` of `of` within the restart window. `stderrTail` is the end of the crashed server's
 * stderr (at most SERVER_STDERR_TAIL_BYTES), for the status details. A `ready{resumed:true}` on the
 * same socket follows once the new process is initialized: the browser resumes as on a reattach.
 */
export interface RestartingFrame {
  status: 'restarting';
  language: LanguageId;
  attempt: number;
  of: number;
  stderrTail?: string;
  /** Why the process ended when agentctl ended it (absent: it exited by itself). */
  cause?: ServerExitCause;
}

/**
 * Why agentctl ended a server itself: `stdin_timeout`, the server took nothing from its stdin for
 * the stdin cutoff (STDIN_WRITE_CUTOFF_MS) while frames waited for it, so it was treated as hung,
 * killed and reaped. A server that is merely slow is never ended by a hop's write deadline.
 */
export type ServerExitCause = 'stdin_timeout';

/**
 * The server process exited: agentctl sends it to the backend right before closing 4006, and the
 * backend to the browser right before its own 4006 (no restart, or the restart budget is spent).
 * `stderrTail`: the end of the server's stderr, at most SERVER_STDERR_TAIL_BYTES.
 */
export interface ServerExitedFrame {
  status: 'server_exited';
  language: LanguageId;
  stderrTail?: string;
  cause?: ServerExitCause;
}
export interface ReleasedFrame {
  status: 'released';
  reason: ReleaseReason;
}

export type HostStatusFrame = InstallingFrame | InstalledFrame | InstallFailedFrame | HostReadyFrame | ReapedFrame | ServerExitedFrame | ServerStderrFrame;
export type StatusFrame =
  | InstallingFrame
  | InstalledFrame
  | InstallFailedFrame
  | ReadyFrame
  | SynchronizedFrame
  | ReleasedFrame
  | ReapedFrame
  | RestartingFrame
  | ServerExitedFrame
  | ServerOutputFrame
  | ServerStderrFrame;

export const releaseReasonSchema = z.enum(['stop', 'editor_idle']);
export type ReleaseReason = z.infer<typeof releaseReasonSchema>;

/**
 * Control frames (browser -> backend; `release-stream` backend -> agentctl). `release-stream`:
 * on the task-host stream after the broker sent `exit`, end the server (a short grace to read
 * `exit`, then SIGTERM, then SIGKILL), reap its whole tree, answer with a `reaped` frame, then
 * close 1000. A browser sending it is ignored. Members beyond these are ignored, never refused.
 */
export const controlFrameSchema = z.discriminatedUnion('control', [
  z.object({ control: z.literal('attachment-ready') }),
  z.object({ control: z.literal('release'), reason: releaseReasonSchema }),
  z.object({ control: z.literal('release-stream') }),
]);
export type ControlFrame = z.infer<typeof controlFrameSchema>;
export type AttachmentReadyControl = Extract<ControlFrame, { control: 'attachment-ready' }>;
export type ReleaseControl = Extract<ControlFrame, { control: 'release' }>;
export type ReleaseStreamControl = Extract<ControlFrame, { control: 'release-stream' }>;

export function isStatusFrame(value: unknown): value is StatusFrame {
  return isRecord(value) && typeof value.status === 'string' && !('jsonrpc' in value);
}

export function isControlFrame(value: unknown): value is ControlFrame {
  return isRecord(value) && !('jsonrpc' in value) && controlFrameSchema.safeParse(value).success;
}

/** A JSON-RPC 2.0 message: the minimum shape every hop checks before forwarding. */
export function isJsonRpcMessage(value: unknown): value is JsonRpcMessage {
  return isRecord(value) && value.jsonrpc === '2.0';
}

export type ParsedFrame =
  | { kind: 'jsonrpc'; message: JsonRpcMessage }
  | { kind: 'status'; frame: StatusFrame }
  | { kind: 'control'; frame: ControlFrame }
  /**
   * A JSON-RPC message nested deeper than MAX_JSON_DEPTH, never parsed. `id` and `method` are its
   * top-level members when usable: a request (both) is answered with nestingRefusal, a response
   * (id only) becomes that error, a notification is dropped. The connection stays up.
   */
  | { kind: 'too_deep'; id: string | number | null | undefined; method: string | undefined }
  | { kind: 'invalid'; reason: 'not_json' | 'not_an_object' | 'unknown_shape' | 'too_deep' };

/** JSON-RPC "Invalid Request", the code a message refused for its nesting is answered with. */
export const JSON_RPC_INVALID_REQUEST = RpcErrorCode.InvalidRequest;

/** The error answering (or standing in for) a message refused for its nesting; names the bound. */
export function nestingRefusal(id: JsonRpcId | null): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: JSON_RPC_INVALID_REQUEST, message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels is refused`, data: { maxDepth: MAX_JSON_DEPTH } },
  };
}

/**
 * The method of a notification, read from a scan without parsing the message: lets a hop drop a
 * notification nobody will read (a detached lease under a flood) without paying for JSON.parse.
 */
export function scannedNotificationMethod(scan: NestingScan): string | undefined {
  if (scan.tooDeep || scan.top.id !== undefined || primitiveOf(scan.top.jsonrpc) !== '2.0') return undefined;
  const method = primitiveOf(scan.top.method);
  return typeof method === 'string' ? method : undefined;
}

type TooDeep = Extract<ParsedFrame, { kind: 'too_deep' }>;
type RpcMessage = ReturnType<typeof nestingRefusal>;

/** What becomes of a message refused for its nesting, on whichever hop saw it. */
export type TooDeepOutcome =
  /** A request: answered at once by that hop with the refusal; it never takes a pending slot. */
  | { kind: 'request'; reply: RpcMessage }
  /** A response: the peer waiting for it gets the refusal in its place, under the same id. */
  | { kind: 'response'; forward: RpcMessage }
  /** A notification (or a message without a usable id): dropped; the hop logs it. */
  | { kind: 'notification' };

export function tooDeepOutcome(frame: TooDeep): TooDeepOutcome {
  const hasId = frame.id !== undefined && frame.id !== null;
  if (frame.method !== undefined && hasId) return { kind: 'request', reply: nestingRefusal(frame.id as string | number) };
  if (frame.method === undefined && hasId) return { kind: 'response', forward: nestingRefusal(frame.id as string | number) };
  return { kind: 'notification' };
}

function primitiveOf(raw: string | undefined): unknown {
  return decodePrimitive(raw);
}

function tooDeepFrame(top: TopLevelMembers): ParsedFrame {
  if (primitiveOf(top.jsonrpc) !== '2.0') return { kind: 'invalid', reason: 'too_deep' };
  const id = primitiveOf(top.id);
  const method = primitiveOf(top.method);
  const usableId = isJsonRpcId(id) || id === null ? id : undefined;
  return { kind: 'too_deep', id: usableId, method: typeof method === 'string' ? method : undefined };
}

/**
 * Classifies one text frame. Never throws: bad input is a value the caller closes on. Nesting is
 * measured on the raw text first (iteratively), so a deep message is refused, never parsed.
 */
export function parseFrame(text: string, scan: NestingScan = scanJsonNesting(text)): ParsedFrame {
  if (scan.tooDeep) return tooDeepFrame(scan.top);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not_json' };
  }
  // A JSON-RPC batch is not used by LSP; arrays are refused like any other foreign shape.
  if (!isRecord(value)) return { kind: 'invalid', reason: 'not_an_object' };
  if (isJsonRpcMessage(value)) return { kind: 'jsonrpc', message: value };
  if (isControlFrame(value)) return { kind: 'control', frame: value };
  if (isStatusFrame(value)) return { kind: 'status', frame: value };
  return { kind: 'invalid', reason: 'unknown_shape' };
}
