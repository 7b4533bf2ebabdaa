import { CloseCode, LANGUAGE_DESCRIPTORS, languageDescriptor, normalizeCloseCode, type LanguageId, type ServerNetwork } from '@kandev/protocol';
import { ResponseError } from './jsonRpc.js';

/**
 * What a status surface shows for one (session, language). Values are the `data-state` test hook.
 * `unavailable` means the server cannot run here until the person changes something (enable
 * auto-install, install it by hand, another executor); `error` means something failed (Retry).
 * `detached` means this window let go of a running server while its session was in the background:
 * the lease keeps the server warm (up to an hour) and coming back reattaches to it.
 */
export const LSP_STATES = ['off', 'connecting', 'installing', 'starting', 'ready', 'reconnecting', 'detached', 'stopping', 'unavailable', 'error'] as const;
export type LspState = (typeof LSP_STATES)[number];

/**
 * A message for a person. Either a catalog key (localized by the UI) or text a language server or
 * installer wrote for people (initialize's `error.message`, install_failed's detail). Never a
 * transport close reason, a stack, or a serialized object.
 */
export type StatusMessage = { key: string; params?: Record<string, string | number> } | { text: string };

/**
 * What the person can do about an unavailable server besides (or instead of) Retry: the general
 * kinds, and the by-hand setup of each server Kandev never installs (its descriptor names the key).
 */
export const GENERAL_GUIDANCE = ['enableAutoInstall', 'manualInstall', 'unsupportedExecutor'] as const;
export type Guidance = string;
export const GUIDANCE: readonly Guidance[] = [
  ...GENERAL_GUIDANCE,
  ...LANGUAGE_DESCRIPTORS.flatMap((d) => (d.install.kind === 'never' ? [d.install.guidanceKey] : [])),
];

/** Where a starting server is: launched and waiting for `initialize`, or reattaching (S39). */
export type StartingPhase = 'installed' | 'awaitingInitialize' | 'synchronizing' | 'restarting';

export interface LspStatus {
  state: LspState;
  message?: StatusMessage;
  /** The installer's own progress line while installing (agentctl's `installing.detail`). */
  detail?: string;
  /** While starting: which step (S39 distinguishes a launched process from protocol readiness). */
  phase?: StartingPhase;
  /** Injected-clock ms when the current state (and phase) began: elapsed time is shown from it. */
  since?: number;
  guidance?: Guidance;
  /** The end of a crashed server's stderr (restarting, or the 4006 that ends the lease). */
  stderrTail?: string;
  /** Generation of the attachment this status describes (0 before the first start). */
  generation: number;
  /** Ready, untrusted workspace: whether the server runs off the network or the task host could not cut it off. */
  network?: ServerNetwork;
}

export const OFF_STATUS: LspStatus = { state: 'off', generation: 0 };

export interface LspActions {
  start: boolean;
  stop: boolean;
  retry: boolean;
}

/** Which lifecycle action a status offers: Start when Off, Stop while running, Retry after a failure. */
export function availableActions(status: LspStatus): LspActions {
  switch (status.state) {
    case 'off':
    case 'detached':
      return { start: true, stop: false, retry: false };
    case 'connecting':
    case 'installing':
    case 'starting':
    case 'ready':
    case 'reconnecting':
      return { start: false, stop: true, retry: false };
    case 'stopping':
      return { start: false, stop: false, retry: false };
    case 'unavailable':
      // An unsupported executor cannot be fixed from here; the other guidance ends with "start again".
      return { start: false, stop: false, retry: status.guidance !== 'unsupportedExecutor' };
    case 'error':
      return { start: false, stop: false, retry: true };
  }
}

/** The catalog key of the localized copy for a close code (docs/architecture.md section 3). */
export function closeMessageKey(rawCode: number, language: LanguageId): string {
  const code = normalizeCloseCode(rawCode);
  if (code === CloseCode.TransportFailure && rawCode !== CloseCode.TransportFailure) return 'close.connectionLost';
  const install = languageDescriptor(language).install;
  if (code === CloseCode.NoInstaller && install.kind === 'never') return `close.${install.closeKey}`;
  return `close.${code}`;
}

/** Languages that Kandev never installs get their own by-hand instructions (4007). */
function manualSetupGuidance(language: LanguageId): Guidance {
  const install = languageDescriptor(language).install;
  return install.kind === 'never' ? install.guidanceKey : 'manualInstall';
}

export type CloseDecision =
  { kind: 'off' } | { kind: 'reconnect' } | { kind: 'error' | 'unavailable'; message: StatusMessage; guidance?: Guidance; leaseEnded: boolean };

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
  const message = { key: closeMessageKey(rawCode, ctx.language), params };
  switch (code) {
    case CloseCode.Normal:
      return { kind: 'off' };
    case CloseCode.TransportFailure:
      if (ctx.canReconnect) return { kind: 'reconnect' };
      return { kind: 'error', message, leaseEnded: false };
    case CloseCode.InstallFailed: {
      const detail = ctx.installError?.trim();
      return { kind: 'error', message: detail ? { text: detail } : { key: 'close.4003', params }, leaseEnded: true };
    }
    case CloseCode.BinaryMissingInstallable:
      return { kind: 'unavailable', message, guidance: 'enableAutoInstall', leaseEnded: true };
    case CloseCode.NoInstaller:
      return { kind: 'unavailable', message, guidance: manualSetupGuidance(ctx.language), leaseEnded: true };
    case CloseCode.ExecutorUnsupported:
      return { kind: 'unavailable', message, guidance: 'unsupportedExecutor', leaseEnded: false };
    default:
      return {
        kind: 'error',
        message,
        // These codes mean no server process is left behind the lease: its hint is useless.
        leaseEnded: code === CloseCode.ServerExited || code === CloseCode.StartFailed || code === CloseCode.GoingAway,
      };
  }
}

/** A person-facing message for a failed initialize: the server's error.message when it is text (S29). */
export function initializeFailureMessage(err: unknown): StatusMessage {
  if (err instanceof ResponseError && err.message.trim() !== '') return { text: err.message };
  return { key: 'message.initializeFailed' };
}

/** Kotlin's initialize may import a Gradle project: after this long the UI says so (S41). */
export const LONG_INITIALIZE_MS = 60_000;

/**
 * The long-running notice of a server whose `initialize` has not been answered for a minute, or
 * undefined. It only discloses; nothing restarts or times out the server (S41).
 */
export function longInitializeNotice(status: LspStatus, language: LanguageId, now: number): StatusMessage | undefined {
  if (status.state !== 'starting' || status.phase !== 'awaitingInitialize' || status.since === undefined) return undefined;
  if (now - status.since < LONG_INITIALIZE_MS) return undefined;
  return { key: languageDescriptor(language).copy.longInitializeNotice, params: { language } };
}

/** States in which time is running for something the person waits on (elapsed is shown). */
export function showsElapsed(status: LspStatus): boolean {
  return (
    status.since !== undefined &&
    (status.state === 'connecting' || status.state === 'installing' || status.state === 'starting' || status.state === 'reconnecting')
  );
}
