import {
  CloseCode,
  normalizeCloseCode,
  type LanguageId,
  type ProgressSnapshot,
  type ReadyFrame,
  type ServerFeature,
  type ServerNetwork,
  type WorkspaceIdentity,
} from '@kandev/protocol';
import { LspAttachment, type AttachmentEnv, type AttachmentHost } from './attachment.js';
import { after, DisposableStore, Emitter, systemClock, type Clock, type Disposable, type Event } from '@kandev/kit';
import type { AccessGate } from '../access/accessWatch.js';
import type { OpenDocumentSource } from './documentSync.js';
import type { FeatureBinder } from './features.js';
import type { ClientInfo } from './initializeParams.js';
import type { LeaseHints } from './leaseHint.js';
import type { SocketFactory } from './socket.js';
import { EMPTY_PROGRESS } from './progress.js';
import { OutputBuffer } from './outputBuffer.js';
import type { ServerWindow } from './serverWindow.js';
import type { RequestFailure } from './requestFailures.js';
import { OFF_STATUS, decideClose, type LspStatus, type StatusMessage } from './status.js';

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
  /** Reconnect, idle and stop timers and status timestamps; tests pass a ManualClock. */
  clock?: Clock;
  clientInfo?: ClientInfo;
  locale?: () => string | undefined;
  /** Delay before each automatic reattach after a transient loss; its length bounds the attempts. */
  reconnectDelaysMs?: readonly number[];
  /** Last editor closed -> release after this long (docs/architecture.md section 7: 2 min). */
  idleReleaseMs?: number;
  /** A release not acknowledged within this long is abandoned (socket closed, state Off). */
  stopTimeoutMs?: number;
  debounceMs?: number;
  /**
   * Refused for capacity (4005): lets go of this window's servers of sessions off screen (they
   * stay warm as detached leases, which the broker may evict). Undefined when there was none to
   * let go; else settles once their sockets have closed, and the refused connection asks once more.
   */
  freeCapacity?: () => Promise<void> | undefined;
  /**
   * The page's sign-in: each reconnect asks it first, and a page that is signed out opens no
   * socket at all (the backend would refuse the upgrade, which a browser only sees as a network
   * failure) until it is signed in again, when a connection stopped that way starts by itself.
   */
  access?: AccessGate;
  /** Toasts, actions and documents for the server's window/* messages (serverWindow.ts). */
  serverWindow?: ServerWindow;
  /** A request the person asked for got no answer: how they are told (requestFailures.ts). */
  requestFailed?: (failure: RequestFailure) => void;
}

/** What an editor's status says while the page is signed out (its copy tells how to sign in again). */
export const SIGNED_OUT_MESSAGE = { key: 'close.signedOut' } as const;

/**
 * After freeing capacity, the new ask waits for the closes of the sockets let go (the backend has
 * answered their close frames), then this long, so the broker has counted those leases as detached.
 */
export const CAPACITY_RETRY_MS = 250;
/** A close that does not come (a network gone) holds the new ask no longer than this. */
export const CAPACITY_CLOSE_WAIT_MS = 2000;

/**
 * Quick retries for a network blip, then one every 10 s: about two minutes in all, the backend's
 * default restart grace (KANDEV_RESTART_GRACE_MS), so a tab whose backend is restarted (or crashed
 * and is started again) reconnects by itself and resumes its lease warm (docs/restarts.md).
 */
export const DEFAULT_RECONNECT_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000, ...Array.from({ length: 11 }, () => 10_000)];
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
  /**
   * The release under way is the idle one: a file of this language opened while it is still on its
   * way (the server cannot be kept; the broker is already shutting it down) starts a fresh server
   * once it has ended, or that editor would stay Off with nothing to start it again.
   */
  private idleReleasing = false;
  /** A 4005 already freed this window's background servers for this start: the next one is final. */
  private capacityFreed = false;
  /** What the last ready frame said about the server's network, for the attachment of that generation. */
  private readyNetwork?: { generation: number; network: ServerNetwork };
  private disposed = false;
  /** Stopped because the page is signed out: it starts again when the page is signed in. */
  private haltedBySignOut = false;
  private reconnectTimer?: Disposable;
  private idleTimer?: Disposable;
  private stopTimer?: Disposable;
  private readonly store = new DisposableStore();
  private readonly statusEmitter = new Emitter<LspStatus>();
  private readonly progressEmitter = new Emitter<ProgressSnapshot>();
  private progressValue: ProgressSnapshot = EMPTY_PROGRESS;
  private readonly clock: Clock;
  private readonly delays: readonly number[];
  private readonly host: AttachmentHost;
  /** The server's Output lines (log, trace, stderr) as the lease kept and sent them. */
  readonly output = new OutputBuffer();
  /** The person pressed Stop: auto-start leaves this (session, language) Off until Start (S02). */
  stoppedByUser = false;

  readonly onDidChangeStatus: Event<LspStatus> = this.statusEmitter.event;
  readonly onDidChangeProgress: Event<ProgressSnapshot> = this.progressEmitter.event;
  private readonly offeredEmitter = new Emitter<void>();
  /** What the current generation's server offers: undefined until it answered initialize, and once it ends. */
  private offeredValue: readonly ServerFeature[] | undefined;
  readonly onDidChangeOffered: Event<void> = this.offeredEmitter.event;
  /** The same array until it changes (a React external-store snapshot). */
  getOffered = (): readonly ServerFeature[] | undefined => this.offeredValue;

  constructor(private readonly options: LspConnectionOptions) {
    this.sessionId = options.sessionId;
    this.language = options.language;
    this.clock = options.clock ?? systemClock;
    this.delays = options.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS;
    this.host = this.createHost();
    this.store.add(options.documents.onDidOpen(() => this.cancelIdle()));
    this.store.add(options.documents.onDidClose(() => this.armIdleIfUnused()));
    if (options.access) this.store.add(options.access.onDidChange((state) => this.onAccess(state)));
  }

  getStatus(): LspStatus {
    return this.statusValue;
  }

  get currentGeneration(): number {
    return this.generation;
  }

  /**
   * Work-done progress of the current generation only: a stopped, crashed, retried or replaced
   * generation leaves nothing behind (S46). The same object until something changes.
   */
  getProgress = (): ProgressSnapshot => this.progressValue;

  progress(): ProgressSnapshot {
    return this.progressValue;
  }

  /** Starts (or resumes through the lease hint) unless something is already running. */
  start(): void {
    if (this.disposed || this.current || this.reconnectTimer) return;
    this.stoppedByUser = false;
    this.haltedBySignOut = false;
    this.reconnectAttempt = 0;
    this.capacityFreed = false;
    if (this.options.access?.state === 'signed-out') {
      this.haltSignedOut(this.generation);
      return;
    }
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

  /**
   * Lets go of a running server without ending it: the socket closes, the lease hint stays, and the
   * broker keeps the server warm as a detached lease (which, unlike an attached one, capacity may
   * evict). `start` reattaches. Nothing happens while stopping, failed, or already off: there is
   * no running server of this window's to keep; nor without open documents, where the idle
   * release is already on its way to end the server. When it detached, settles once the socket
   * it closed has closed (at once when it was between sockets).
   */
  detach(): Promise<void> | undefined {
    if (this.disposed || this.stopRequested) return undefined;
    const running = this.current !== undefined || this.reconnectTimer !== undefined;
    if (!running || !this.options.leaseHints.get(this.sessionId, this.language)) return undefined;
    if (this.options.documents.documents().length === 0) return undefined;
    this.cancelIdle();
    this.reconnectAttempt = 0;
    const closed = this.current?.closed ?? Promise.resolve();
    this.endCurrent();
    this.setStatus({ state: 'detached', generation: this.generation });
    return closed;
  }

  /** Releases the lease: the server is shut down and reaped, not merely detached. */
  release(reason: 'stop' | 'editor_idle'): void {
    if (this.disposed) return;
    this.haltedBySignOut = false;
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
    this.idleReleasing = reason === 'editor_idle';
    attachment.release(reason);
    this.setStatus({ state: 'stopping', message: { key: 'message.stopping' }, generation: this.generation });
    this.stopTimer?.dispose();
    this.stopTimer = after(this.clock, this.options.stopTimeoutMs ?? 10_000, () => {
      this.stopTimer = undefined;
      if (this.current !== attachment) return;
      this.endCurrent();
      this.options.leaseHints.clear(this.sessionId, this.language);
      this.setStatus({ ...OFF_STATUS, generation: this.generation });
      this.startIfReopenedDuringIdleRelease();
    });
  }

  /** Called once a release has ended Off: see `idleReleasing`. */
  private startIfReopenedDuringIdleRelease(): void {
    const idle = this.idleReleasing;
    this.idleReleasing = false;
    if (idle && !this.stoppedByUser && this.options.documents.documents().length > 0) this.start();
  }

  private connect(): void {
    const generation = ++this.generation;
    this.stopRequested = false;
    this.idleReleasing = false;
    const hint = this.options.leaseHints.get(this.sessionId, this.language);
    let socket;
    try {
      socket = this.options.openSocket(this.options.socketUrl(this.sessionId, this.language, hint));
    } catch {
      this.setStatus({ state: 'error', message: { key: 'close.connectionLost', params: { language: this.language } }, generation });
      return;
    }
    const env: AttachmentEnv = {
      sessionId: this.sessionId,
      language: this.language,
      documents: this.options.documents,
      bindFeatures: this.options.bindFeatures,
      clock: this.clock,
      debounceMs: this.options.debounceMs ?? 150,
      clientInfo: this.options.clientInfo ?? { name: 'Kandev' },
      locale: this.options.locale ?? (() => undefined),
      ...(this.options.serverWindow ? { window: this.options.serverWindow } : {}),
      ...(this.options.requestFailed ? { requestFailed: this.options.requestFailed } : {}),
    };
    this.current = new LspAttachment(generation, socket, env, this.host);
    this.setProgress(EMPTY_PROGRESS);
    this.setOffered(undefined);
    this.setStatus(this.reconnectAttempt > 0 ? this.reconnectingStatus(generation) : { state: 'connecting', generation });
  }

  private reconnectingStatus(generation: number): LspStatus {
    return {
      state: 'reconnecting',
      message: { key: 'message.reconnecting', params: { attempt: this.reconnectAttempt, max: this.delays.length } },
      generation,
    };
  }

  private createHost(): AttachmentHost {
    const isCurrent = (a: LspAttachment) => !this.disposed && a === this.current;
    return {
      onPhase: (a, state, info) => {
        if (!isCurrent(a) || this.stopRequested) return;
        if (this.reconnectAttempt > 0 && state === 'starting') {
          this.setStatus(this.reconnectingStatus(a.generation));
          return;
        }
        const status: LspStatus = { state, generation: a.generation };
        if (info.message) status.message = info.message;
        if (info.phase) status.phase = info.phase;
        if (info.detail) status.detail = info.detail;
        this.setStatus(status);
      },
      onReadyFrame: (a, frame: ReadyFrame) => {
        if (!isCurrent(a)) return;
        // Reconnected, but to a fresh server (the lease did not survive, e.g. a backend restart
        // while it was still initializing): what follows is a cold start, and the status says so.
        if (frame.resumed !== true) this.reconnectAttempt = 0;
        if (typeof frame.lease === 'string' && frame.lease) {
          this.options.leaseHints.set(this.sessionId, this.language, frame.lease);
          this.output.useLease(frame.lease);
        }
        if (a.workspace) this.options.onWorkspaceIdentity?.(this.sessionId, a.workspace);
        this.readyNetwork = frame.network === 'off' || frame.network === 'unavailable' ? { generation: a.generation, network: frame.network } : undefined;
      },
      onReady: (a) => {
        if (!isCurrent(a)) return;
        this.reconnectAttempt = 0;
        this.capacityFreed = false;
        const network = this.readyNetwork?.generation === a.generation ? this.readyNetwork.network : undefined;
        if (!this.stopRequested) this.setStatus({ state: 'ready', generation: a.generation, ...(network ? { network } : {}) });
        this.armIdleIfUnused();
      },
      onFailed: (a, message: StatusMessage) => {
        if (!isCurrent(a)) return;
        this.endCurrent();
        this.options.leaseHints.clear(this.sessionId, this.language);
        this.setStatus({ state: 'error', message, generation: a.generation });
      },
      onReleased: (a) => {
        if (!isCurrent(a)) return;
        this.endCurrent();
        this.options.leaseHints.clear(this.sessionId, this.language);
        this.setStatus({ ...OFF_STATUS, generation: a.generation });
        this.startIfReopenedDuringIdleRelease();
      },
      onClosed: (a, code) => {
        if (!isCurrent(a)) return;
        const stopRequested = this.stopRequested;
        this.endCurrent();
        if (!stopRequested && this.retryAfterFreeingCapacity(code, a.generation)) return;
        const decision = decideClose(code, {
          language: this.language,
          stopRequested,
          installError: a.installError,
          canReconnect: this.reconnectAttempt < this.delays.length,
        });
        if (decision.kind === 'off') {
          if (stopRequested || code === CloseCode.Normal) this.options.leaseHints.clear(this.sessionId, this.language);
          this.setStatus({ ...OFF_STATUS, generation: a.generation });
          if (stopRequested) this.startIfReopenedDuringIdleRelease();
        } else if (decision.kind === 'reconnect') {
          const delay = this.delays[this.reconnectAttempt] ?? 0;
          if (this.options.access?.state === 'signed-out') {
            this.haltSignedOut(a.generation);
            return;
          }
          this.reconnectAttempt++;
          this.setStatus(this.reconnectingStatus(a.generation));
          this.reconnectTimer = after(this.clock, delay, () => this.reconnectIfAdmitted(a.generation));
        } else {
          if (decision.leaseEnded) this.options.leaseHints.clear(this.sessionId, this.language);
          this.reconnectAttempt = 0;
          const status: LspStatus = { state: decision.kind, message: decision.message, generation: a.generation };
          if (decision.guidance) status.guidance = decision.guidance;
          if (a.serverStderr && normalizeCloseCode(code) === CloseCode.ServerExited) status.stderrTail = a.serverStderr;
          this.setStatus(status);
        }
      },
      onProgress: (a) => {
        if (isCurrent(a)) this.setProgress(a.progress());
      },
      onOutput: (a, lines) => {
        if (isCurrent(a)) this.output.merge(lines);
      },
      onCapabilities: (a) => {
        if (isCurrent(a)) this.setOffered(a.offeredFeatures());
      },
      onRestarting: (a, info) => {
        if (!isCurrent(a) || this.stopRequested) return;
        const status: LspStatus = {
          state: 'starting',
          phase: 'restarting',
          message: { key: 'faults:restarting', params: { language: this.language, attempt: info.attempt, of: info.of } },
          generation: a.generation,
        };
        if (info.stderrTail) status.stderrTail = info.stderrTail;
        this.setStatus(status);
      },
    };
  }

  /**
   * 4005 while this window holds attached servers of sessions it does not show: those are let go
   * (detached, still warm) and this connection asks once more, so the broker can evict one of
   * them instead of refusing the editor the person is looking at.
   */
  private retryAfterFreeingCapacity(code: number, generation: number): boolean {
    if (normalizeCloseCode(code) !== CloseCode.CapacityReached || this.capacityFreed) return false;
    const closes = this.options.freeCapacity?.();
    if (!closes) return false;
    this.capacityFreed = true;
    this.setStatus({ state: 'connecting', generation });
    // Asked again too early, the broker still counts a server let go as attached and refuses
    // again, which is final: once in CI the editor on screen stayed refused while it had room.
    const wait: Disposable = { dispose: () => bound.dispose() };
    const askAgain = () => {
      if (this.reconnectTimer !== wait) return; // stopped meanwhile, or asked already
      bound.dispose();
      this.reconnectTimer = after(this.clock, CAPACITY_RETRY_MS, () => {
        this.reconnectTimer = undefined;
        if (!this.disposed && !this.current) this.connect();
      });
    };
    const bound = after(this.clock, CAPACITY_CLOSE_WAIT_MS, askAgain);
    this.reconnectTimer = wait;
    void closes.then(askAgain, askAgain);
    return true;
  }

  /**
   * A reconnect's turn came: the page's sign-in is asked first (one question for the window). The
   * reconnect timer stays set while it is asked, so nothing else starts a second attempt meanwhile.
   */
  private reconnectIfAdmitted(generation: number): void {
    const access = this.options.access;
    if (!access) {
      this.reconnectTimer = undefined;
      if (!this.disposed && !this.current) this.connect();
      return;
    }
    let cancelled = false;
    const waiting: Disposable = { dispose: () => (cancelled = true) };
    this.reconnectTimer = waiting;
    void access.admit().then((admitted) => {
      if (cancelled || this.disposed || this.reconnectTimer !== waiting) return;
      this.reconnectTimer = undefined;
      if (this.current) return;
      if (admitted) this.connect();
      else this.haltSignedOut(generation);
    });
  }

  /** Signed out: no socket, no retry; the lease hint stays so signing in again resumes the same server. */
  private haltSignedOut(generation: number): void {
    this.endCurrent();
    this.haltedBySignOut = true;
    this.reconnectAttempt = 0;
    this.setStatus({ state: 'unavailable', message: SIGNED_OUT_MESSAGE, generation });
  }

  private onAccess(state: 'signed-in' | 'signed-out'): void {
    if (this.disposed) return;
    if (state === 'signed-out') {
      // A socket that is open stays (its upgrade was accepted); one waiting to reconnect stops now.
      if (this.reconnectTimer && !this.current) this.haltSignedOut(this.generation);
      return;
    }
    if (!this.haltedBySignOut) return;
    this.haltedBySignOut = false;
    this.start();
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
    this.setProgress(EMPTY_PROGRESS);
    this.setOffered(undefined);
  }

  private setOffered(features: readonly ServerFeature[] | undefined): void {
    const same = features?.join() === this.offeredValue?.join();
    if (same) return;
    this.offeredValue = features;
    this.offeredEmitter.fire();
  }

  private armIdleIfUnused(): void {
    if (this.disposed || !this.current || this.idleTimer) return;
    if (this.options.documents.documents().length > 0) return;
    this.idleTimer = after(this.clock, this.options.idleReleaseMs ?? IDLE_RELEASE_MS, () => {
      this.idleTimer = undefined;
      if (this.options.documents.documents().length === 0) this.release('editor_idle');
    });
  }

  private cancelIdle(): void {
    this.idleTimer?.dispose();
    this.idleTimer = undefined;
  }

  /**
   * Publishes a status. `since` (for elapsed time) is kept while the state and starting phase stay
   * the same (a new installer line, another reconnect attempt) and restarts when either changes.
   */
  private setStatus(next: LspStatus): void {
    if (this.disposed) return;
    const previous = this.statusValue;
    const sameStep = previous.state === next.state && previous.phase === next.phase;
    const status: LspStatus = { ...next, since: next.since ?? (sameStep && previous.since !== undefined ? previous.since : this.clock.now()) };
    this.statusValue = status;
    this.statusEmitter.fire(status);
  }

  private setProgress(progress: ProgressSnapshot): void {
    if (this.disposed || progress === this.progressValue) return;
    if (progress.active.length === 0 && !progress.lastEnded && this.progressValue.active.length === 0 && !this.progressValue.lastEnded) return;
    this.progressValue = progress;
    this.progressEmitter.fire(progress);
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
    this.output.dispose();
    this.offeredEmitter.dispose();
  }
}
