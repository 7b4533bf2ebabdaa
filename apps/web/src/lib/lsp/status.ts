import { CloseCode, normalizeCloseCode, type LanguageId } from '@kandev/protocol';
import { ResponseError } from './jsonRpc.js';

/** What a status surface shows for one (session, language). Values are the `data-state` test hook. */
export const LSP_STATES = ['off', 'connecting', 'installing', 'starting', 'ready', 'reconnecting', 'error'] as const;
export type LspState = (typeof LSP_STATES)[number];

/**
 * A message for a person. Either a catalog key (localized by the UI) or text a language server or
 * installer wrote for people (initialize's `error.message`, install_failed's detail). Never a
 * transport close reason, a stack, or a serialized object.
 */
export type StatusMessage = { key: string; params?: Record<string, string | number> } | { text: string };

export interface LspStatus {
  state: LspState;
  message?: StatusMessage;
  /** A release was sent and its acknowledgement is awaited. */
  stopping: boolean;
  /** Generation of the attachment this status describes (0 before the first start). */
  generation: number;
}

export const OFF_STATUS: LspStatus = { state: 'off', stopping: false, generation: 0 };

/** Which lifecycle action a status offers. */
export function availableActions(status: LspStatus): { start: boolean; stop: boolean; retry: boolean } {
  const running = status.state !== 'off' && status.state !== 'error';
  return { start: status.state === 'off', stop: running && !status.stopping, retry: status.state === 'error' };
}

/** The catalog key of the localized copy for a close code (DESIGN section 3). */
export function closeMessageKey(rawCode: number, language: LanguageId): string {
  const code = normalizeCloseCode(rawCode);
  if (code === CloseCode.TransportFailure && rawCode !== CloseCode.TransportFailure) return 'close.connectionLost';
  if (code === CloseCode.NoInstaller && language === 'kotlin') return 'close.4007Kotlin';
  return `close.${code}`;
}

export type CloseDecision =
  | { kind: 'off' }
  | { kind: 'reconnect' }
  | { kind: 'error'; message: StatusMessage; leaseEnded: boolean };

export interface CloseContext {
  language: LanguageId;
  /** The browser asked for release (Stop or editor idle): whatever the code, the person wanted Off. */
  stopRequested: boolean;
  /** Detail of a preceding install_failed frame (S12). */
  installError?: string;
  /** May a transient loss be retried automatically? False once the bounded attempts are spent. */
  canReconnect: boolean;
}

/**
 * Maps a WebSocket close to the next state. Transport failures (4009 and the reserved codes that
 * normalize to it) are transient: reconnect while attempts remain (C05). Everything else is final
 * and shows localized copy for its code, never the close reason (S04, S13, S28, S31, S56).
 */
export function decideClose(rawCode: number, ctx: CloseContext): CloseDecision {
  if (ctx.stopRequested) return { kind: 'off' };
  const code = normalizeCloseCode(rawCode);
  const params = { language: ctx.language };
  switch (code) {
    case CloseCode.Normal:
      return { kind: 'off' };
    case CloseCode.TransportFailure:
      if (ctx.canReconnect) return { kind: 'reconnect' };
      return { kind: 'error', message: { key: closeMessageKey(rawCode, ctx.language), params }, leaseEnded: false };
    case CloseCode.InstallFailed: {
      const detail = ctx.installError?.trim();
      return { kind: 'error', message: detail ? { text: detail } : { key: 'close.4003', params }, leaseEnded: true };
    }
    default:
      return {
        kind: 'error',
        message: { key: closeMessageKey(rawCode, ctx.language), params },
        // These codes mean no server process is left behind the lease: its hint is useless.
        leaseEnded: code === CloseCode.ServerExited || code === CloseCode.BinaryMissingInstallable || code === CloseCode.NoInstaller || code === CloseCode.StartFailed || code === CloseCode.GoingAway,
      };
  }
}

/** A person-facing message for a failed initialize: the server's error.message when it is text (S29). */
export function initializeFailureMessage(err: unknown): StatusMessage {
  if (err instanceof ResponseError && err.message.trim() !== '') return { text: err.message };
  return { key: 'message.initializeFailed' };
}
