import type { LanguageId, ProgressSnapshot, ReadyFrame, WorkspaceIdentity } from '@kandev/protocol';
import { LspAttachment, type AttachmentEnv, type AttachmentHost } from './attachment.js';
import { DisposableStore, Emitter, realTimers, timeout, type Disposable, type Event, type Timers } from './disposable.js';
import type { OpenDocumentSource } from './documentSync.js';
import type { FeatureBinder } from './features.js';
import type { ClientInfo } from './initializeParams.js';
import type { LeaseHints } from './leaseHint.js';
import type { SocketFactory } from './socket.js';
import { OFF_STATUS, decideClose, type LspState, type LspStatus, type StatusMessage } from './status.js';

export interface LspConnectionOptions {
  sessionId: string;
  language: LanguageId;
  openSocket: SocketFactory;
  socketUrl: (sessionId: string, language: LanguageId, leaseHint: string | undefined) => string;
  leaseHints: LeaseHints;
  documents: OpenDocumentSource;
  bindFeatures: FeatureBinder;
  /** The ready handshake's workspace identity, kept beyond this connection's life (S34). */
  onWorkspaceIdentity?: (sessionId: string, identity: WorkspaceIdentity) => void;
  timers?: Timers;
  now?: () => number;
  clientInfo?: ClientInfo;
  locale?: () => string | undefined;
  /** Delay before each automatic reattach after a transient loss; its length bounds the attempts. */
  reconnectDelaysMs?: readonly number[];
  /** Last editor closed -> release after this long (DESIGN section 7: 2 min). */
  idleReleaseMs?: number;
  /** A release not acknowledged within this long is abandoned (socket closed, state Off). */
  stopTimeoutMs?: number;
  debounceMs?: number;
}

export const DEFAULT_RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000] as const;
export const IDLE_RELEASE_MS = 120_000;

/**
 * The LSP connection of one (window, session, language). It owns a generation number: every
 * start, retry or reattach creates a new attachment, and reports from any attachment that is no
 * longer current are ignored, so an old generation can never close, initialize or clean up a
 * newer one (S33).
 */
export class LspConnection implements Disposable {
  readonly sessionId: string;
  readonly language: LanguageId;
  private statusValue: LspStatus = OFF_STATUS;
  private current?: LspAttachment;
  private generation = 0;
  private reconnectAttempt = 0;
  private stopRequested = false;
  private disposed = false;
  private reconnectTimer?: Disposable;
  private idleTimer?: Disposable;
  private stopTimer?: Disposable;
  private readonly store = new DisposableStore();
  private readonly statusEmitter = new Emitter<LspStatus>();
  private readonly progressEmitter = new Emitter<ProgressSnapshot>();
  private readonly timers: Timers;
  private readonly delays: readonly number[];
  private readonly host: AttachmentHost;
  /** The person pressed Stop: auto-start leaves this (session, language) Off until Start (S02). */
  stoppedByUser = false;

  readonly onDidChangeStatus: Event<LspStatus> = this.statusEmitter.event;
  readonly onDidChangeProgress: Event<ProgressSnapshot> = this.progressEmitter.event;

  constructor(private readonly options: LspConnectionOptions) {
    this.sessionId = options.sessionId;
    this.language = options.language;
    this.timers = options.timers ?? realTimers;
    this.delays = options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS;
    this.host = this.createHost();
    this.store.add(options.documents.onDidOpen(() => this.cancelIdle()));
    this.store.add(options.documents.onDidClose(() => this.armIdleIfUnused()));
  }

  getStatus(): LspStatus {
    return this.statusValue;
  }

  /** For useSyncExternalStore. */
  subscribe = (listener: () => void): (() => void) => {
    const d = this.onDidChangeStatus(() => listener());
    return () => d.dispose();
  };

  get currentGeneration(): number {
    return this.generation;
  }

  progress(): ProgressSnapshot {
    return this.current?.progress() ?? { active: [] };
  }

  /** Starts (or resumes through the lease hint) unless something is already running. */
  start(): void {
    if (this.disposed || this.current || this.reconnectTimer) return;
    this.stoppedByUser = false;
    this.reconnectAttempt = 0;
    this.connect();
  }

  /** Retry after an error: a fresh generation. */
  retry(): void {
    if (this.disposed) return;
    this.endCurrent();
    this.start();
  }

  /** The person pressed Stop: release the lease (acknowledged), and stay Off (S02). */
  stop(): void {
    this.stoppedByUser = true;
    this.release('stop');
  }

  /** Releases the lease: the server is shut down and reaped, not merely detached. */
  release(reason: 'stop' | 'editor_idle'): void {
    if (this.disposed) return;
    this.cancelIdle();
    this.reconnectTimer?.dispose();
    this.reconnectTimer = undefined;
    const attachment = this.current;
    if (!attachment) {
      this.options.leaseHints.clear(this.sessionId, this.language);
      this.setStatus({ ...OFF_STATUS, generation: this.generation });
      return;
    }
    if (!attachment.isOpen) {
      // Nothing was admitted that a release could address yet: closing is the whole answer.
      this.endCurrent();
      this.setStatus({ ...OFF_STATUS, generation: this.generation });
      return;
    }
    this.stopRequested = true;
    attachment.release(reason);
    this.setStatus({ ...this.statusValue, stopping: true });
    this.stopTimer?.dispose();
    this.stopTimer = timeout(this.timers, this.options.stopTimeoutMs ?? 10_000, () => {
      this.stopTimer = undefined;
      if (this.current !== attachment) return;
      this.endCurrent();
      this.options.leaseHints.clear(this.sessionId, this.language);
      this.setStatus({ ...OFF_STATUS, generation: this.generation });
    });
  }

  private connect(): void {
    const generation = ++this.generation;
    this.stopRequested = false;
    const hint = this.options.leaseHints.get(this.sessionId, this.language);
    let socket;
    try {
      socket = this.options.openSocket(this.options.socketUrl(this.sessionId, this.language, hint));
    } catch {
      this.setStatus({ state: 'error', message: { key: 'close.connectionLost', params: { language: this.language } }, stopping: false, generation });
      return;
    }
    const env: AttachmentEnv = {
      sessionId: this.sessionId,
      language: this.language,
      documents: this.options.documents,
      bindFeatures: this.options.bindFeatures,
      timers: this.timers,
      now: this.options.now ?? Date.now,
      debounceMs: this.options.debounceMs ?? 150,
      clientInfo: this.options.clientInfo ?? { name: 'Kandev' },
      locale: this.options.locale ?? (() => undefined),
    };
    this.current = new LspAttachment(generation, socket, env, this.host);
    this.setStatus(this.reconnectAttempt > 0 ? this.reconnectingStatus(generation) : { state: 'connecting', stopping: false, generation });
  }

  private reconnectingStatus(generation: number): LspStatus {
    return {
      state: 'reconnecting',
      message: { key: 'message.reconnecting', params: { attempt: this.reconnectAttempt, max: this.delays.length } },
      stopping: false,
      generation,
    };
  }

  private createHost(): AttachmentHost {
    const isCurrent = (a: LspAttachment) => !this.disposed && a === this.current;
    return {
      onPhase: (a, state, message) => {
        if (!isCurrent(a)) return;
        const shown: LspState = this.reconnectAttempt > 0 && state === 'starting' ? 'reconnecting' : state;
        this.setStatus({ state: shown, message, stopping: this.stopRequested, generation: a.generation });
      },
      onReadyFrame: (a, frame: ReadyFrame) => {
        if (!isCurrent(a)) return;
        if (typeof frame.lease === 'string' && frame.lease) this.options.leaseHints.set(this.sessionId, this.language, frame.lease);
        if (a.workspace) this.options.onWorkspaceIdentity?.(this.sessionId, a.workspace);
      },
      onReady: (a) => {
        if (!isCurrent(a)) return;
        this.reconnectAttempt = 0;
        this.setStatus({ state: 'ready', stopping: this.stopRequested, generation: a.generation });
        this.armIdleIfUnused();
      },
      onFailed: (a, message: StatusMessage) => {
        if (!isCurrent(a)) return;
        this.endCurrent();
        this.options.leaseHints.clear(this.sessionId, this.language);
        this.setStatus({ state: 'error', message, stopping: false, generation: a.generation });
      },
      onReleased: (a) => {
        if (!isCurrent(a)) return;
        this.endCurrent();
        this.options.leaseHints.clear(this.sessionId, this.language);
        this.setStatus({ ...OFF_STATUS, generation: a.generation });
      },
      onClosed: (a, code) => {
        if (!isCurrent(a)) return;
        const stopRequested = this.stopRequested;
        this.endCurrent();
        const decision = decideClose(code, {
          language: this.language,
          stopRequested,
          installError: a.installError,
          canReconnect: this.reconnectAttempt < this.delays.length,
        });
        if (decision.kind === 'off') {
          if (stopRequested || code === 1000) this.options.leaseHints.clear(this.sessionId, this.language);
          this.setStatus({ ...OFF_STATUS, generation: a.generation });
        } else if (decision.kind === 'reconnect') {
          const delay = this.delays[this.reconnectAttempt] ?? 0;
          this.reconnectAttempt++;
          this.setStatus(this.reconnectingStatus(a.generation));
          this.reconnectTimer = timeout(this.timers, delay, () => {
            this.reconnectTimer = undefined;
            if (!this.disposed && !this.current) this.connect();
          });
        } else {
          if (decision.leaseEnded) this.options.leaseHints.clear(this.sessionId, this.language);
          this.reconnectAttempt = 0;
          this.setStatus({ state: 'error', message: decision.message, stopping: false, generation: a.generation });
        }
      },
      onProgress: (a) => {
        if (isCurrent(a)) this.progressEmitter.fire(a.progress());
      },
    };
  }

  /** Disposes the current attachment (a detach: the socket closes, the lease hint stays). */
  private endCurrent(): void {
    const attachment = this.current;
    this.current = undefined;
    this.stopRequested = false;
    this.stopTimer?.dispose();
    this.stopTimer = undefined;
    this.reconnectTimer?.dispose();
    this.reconnectTimer = undefined;
    attachment?.dispose();
  }

  private armIdleIfUnused(): void {
    if (this.disposed || !this.current || this.idleTimer) return;
    if (this.options.documents.documents().length > 0) return;
    this.idleTimer = timeout(this.timers, this.options.idleReleaseMs ?? IDLE_RELEASE_MS, () => {
      this.idleTimer = undefined;
      if (this.options.documents.documents().length === 0) this.release('editor_idle');
    });
  }

  private cancelIdle(): void {
    this.idleTimer?.dispose();
    this.idleTimer = undefined;
  }

  private setStatus(status: LspStatus): void {
    if (this.disposed) return;
    this.statusValue = status;
    this.statusEmitter.fire(status);
  }

  /** Window teardown or replacement: detach (never release), and ignore everything after. */
  dispose(): void {
    if (this.disposed) return;
    this.cancelIdle();
    this.endCurrent();
    this.disposed = true;
    this.store.dispose();
    this.statusEmitter.dispose();
    this.progressEmitter.dispose();
  }
}
