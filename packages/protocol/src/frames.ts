import type { LanguageId } from './languages.js';

/** Frames with `status` are ours; frames with `jsonrpc` are LSP (DESIGN section 3). */
export interface InstallingFrame { status: 'installing'; language: LanguageId; detail?: string }
export interface InstalledFrame { status: 'installed'; language: LanguageId }
export interface InstallFailedFrame { status: 'install_failed'; language: LanguageId; error: string }

export interface WorkspaceIdentity {
  workspaceUri: string;
  workspacePath: string;
  repoSubpaths: string[];
}

/**
 * Task-host tools the backend pins a server to while the task's workspace is not trusted
 * (docs/workspace-trust.md). agentctl found them outside the workspace; absent when it found none.
 */
export interface TrustedToolPins {
  /** The `tsserver.js` of the TypeScript that the launched typescript-language-server itself resolves. */
  tsserverPath?: string;
  /** The task host's python interpreter (first `python3`/`python` on the task PATH outside the workspace). */
  pythonPath?: string;
  /**
   * kotlin: the Gradle/Maven build files (workspace-relative) that kotlin-lsp would import, which
   * runs the repository's build scripts. Non-empty: the backend refuses `initialize` while untrusted.
   */
  buildFiles?: string[];
}

/** What agentctl says once the server process launched. */
export interface HostReadyFrame extends WorkspaceIdentity {
  status: 'ready';
  language: LanguageId;
  /** Additive: only on the task-host stream, and only when the stream was opened untrusted. */
  trustedTools?: TrustedToolPins;
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
  /** Only when resumed: what the broker retained for the browser to rebuild from. */
  initializeResult?: unknown;
  registrations?: unknown[];
  progress?: ProgressSnapshot;
}

export interface SynchronizedFrame { status: 'synchronized' }
export interface ReleasedFrame { status: 'released'; reason: ReleaseReason }

export type HostStatusFrame = InstallingFrame | InstalledFrame | InstallFailedFrame | HostReadyFrame;
export type StatusFrame = InstallingFrame | InstalledFrame | InstallFailedFrame | ReadyFrame | SynchronizedFrame | ReleasedFrame;

export type ReleaseReason = 'stop' | 'editor_idle';
export interface AttachmentReadyControl { control: 'attachment-ready' }
export interface ReleaseControl { control: 'release'; reason: ReleaseReason }
export type ControlFrame = AttachmentReadyControl | ReleaseControl;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isStatusFrame(value: unknown): value is StatusFrame {
  return isObject(value) && typeof value.status === 'string' && !('jsonrpc' in value);
}

export function isControlFrame(value: unknown): value is ControlFrame {
  if (!isObject(value) || 'jsonrpc' in value) return false;
  if (value.control === 'attachment-ready') return true;
  return value.control === 'release' && (value.reason === 'stop' || value.reason === 'editor_idle');
}

/** A JSON-RPC 2.0 message: the minimum shape every hop checks before forwarding. */
export function isJsonRpcMessage(value: unknown): value is Record<string, unknown> & { jsonrpc: '2.0' } {
  return isObject(value) && value.jsonrpc === '2.0';
}

export type ParsedFrame =
  | { kind: 'jsonrpc'; message: Record<string, unknown> & { jsonrpc: '2.0' } }
  | { kind: 'status'; frame: StatusFrame }
  | { kind: 'control'; frame: ControlFrame }
  | { kind: 'invalid'; reason: 'not_json' | 'not_an_object' | 'unknown_shape' };

/** Classifies one text frame. Never throws: bad input is a value the caller closes on. */
export function parseFrame(text: string): ParsedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not_json' };
  }
  // A JSON-RPC batch is not used by LSP; arrays are refused like any other foreign shape.
  if (!isObject(value)) return { kind: 'invalid', reason: 'not_an_object' };
  if (isJsonRpcMessage(value)) return { kind: 'jsonrpc', message: value };
  if (isControlFrame(value)) return { kind: 'control', frame: value };
  if (isStatusFrame(value)) return { kind: 'status', frame: value };
  return { kind: 'invalid', reason: 'unknown_shape' };
}
