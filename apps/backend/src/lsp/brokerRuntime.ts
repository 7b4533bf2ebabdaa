/**
 * The lease broker in production: one LeaseBroker per backend, fed events in order, with its
 * effects carried out by `performEffect`. The broker is a pure state machine; this is the thin
 * wiring around it (STYLE: "the sockets around it stay thin").
 *
 *   browser socket accepted      -> browserConnected     frame -> browserFrame    close -> browserClosed
 *   5 s write deadline expired   -> browserWriteTimedOut
 *   task-host stream frame/close -> upstreamFrame / upstreamClosed (4002 when it could not be opened)
 *   timer due                    -> timerFired           settings saved -> settingsChanged
 *   probeBrowser effect          -> holderAnswered on the pong, holderSilent when none came
 *   session ended                -> sessionStopped       backend stopping -> shutdown
 *
 * Events are queued and handled one at a time: an effect whose I/O reports back synchronously
 * can never re-enter the broker in the middle of another event's effects.
 */
import { randomBytes } from 'node:crypto';
import { after, systemClock, type Clock, type Disposable } from '@kandev/kit';
import { WS_WRITE_DEADLINE_MS, type UserSettings } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import { LeaseBroker, type BrokerEvent, type BrokerMetrics, type LeaseView, type MeasureEffect } from './broker/index.js';
import { performEffect, type EffectTargets } from './leaseEffects.js';
import { LeaseTimers } from './leaseTimers.js';
import type { BrowserEndpoint, BrowserFrame, LeaseRequest, LspRelay, UpstreamOpener } from './relay.js';
import { TaskHostPins, type TaskHostPinView } from '../sessions/taskHostPins.js';
import { UpstreamLinks } from './upstreamLinks.js';
import { LeaseJournal, type LeaseStore } from './leaseJournal.js';
import type { AdoptedLeaseState } from './broker/index.js';

/** Kandev is single-user today: every lease belongs to this user. */
export const LOCAL_USER = 'local';

/** How long shutdown waits for agentctl to complete the close of every task-host stream. */
const SHUTDOWN_DRAIN_MS = 5_000;
/**
 * How long a browser may keep its lease's upstream unread (its backlog above the high watermark)
 * before it counts as one that cannot take writes. Well under agentctl's own 5 s write deadline,
 * which would otherwise end the lease (4009) for a browser's sake: a slow tab costs its attachment,
 * never its server.
 */
export const SLOW_BROWSER_HOLD_MS = WS_WRITE_DEADLINE_MS / 2;

export interface BrokerRuntimeOptions {
  /** Lease slots, attached or detached (KANDEV_LSP_MAX_CONNECTIONS). */
  maxLeases: number;
  /** Restarts of a crashed server within the window (KANDEV_LSP_RESTART_LIMIT; default 5). */
  restartLimit?: number;
  openUpstream: UpstreamOpener;
  /** The user's persisted settings now. */
  settings: () => UserSettings;
  /** The session's task trusts its workspace's tools now (absent: never). */
  workspaceTrusted?: (sessionId: string) => boolean;
  log: Logger;
  clock?: Clock;
  newLeaseId?: () => string;
  /** The detached deadline (default one hour); tests rather inject a ManualClock. */
  detachedDeadlineMs?: number;
  /** How long a browser request may wait for its server's answer (KANDEV_LSP_REQUEST_TIMEOUT_MS; default 30 s). */
  requestTimeoutMs?: number;
  shutdownDrainMs?: number;
  /** How long the holder of a hinted lease gets to answer a ping (the broker's holder probe). */
  holderProbeMs?: number;
  slowBrowserHoldMs?: number;
  /** A server start or install the broker timed (for /metrics). */
  measured?: (measure: MeasureEffect) => void;
  /** Where resumable lease state is persisted for the next backend (absent: leases die with this process). */
  leaseStore?: LeaseStore;
}

export class BrokerRuntime implements LspRelay {
  private readonly broker: LeaseBroker;
  private readonly clock: Clock;
  /** Browser sockets handed to the broker, by attachment id, until they close. */
  private readonly attached = new Map<string, BrowserEndpoint>();
  /** Sockets handed over but not yet read: the broker holds them until a holder probe concludes. */
  private readonly unread = new Map<string, BrowserEndpoint>();
  private readonly upstreams: UpstreamLinks;
  private readonly timers: LeaseTimers;
  private readonly pinsTable = new TaskHostPins();
  private readonly targets: EffectTargets;
  private readonly queue: BrokerEvent[] = [];
  /** Upstreams not read because this attachment's browser is full, by attachment id. */
  private readonly upstreamsHeldBy = new Map<string, { leaseId: string; hold: Disposable }>();
  /** Browsers not read because their lease's upstream is full, by lease id. */
  private readonly browsersHeldBy = new Map<string, BrowserEndpoint>();
  private draining = false;
  private nextAttachment = 0;
  private readonly journal: LeaseJournal | undefined;

  constructor(private readonly options: BrokerRuntimeOptions) {
    this.clock = options.clock ?? systemClock;
    const brokerOptions: ConstructorParameters<typeof LeaseBroker>[0] = {
      maxLeases: options.maxLeases,
      newLeaseId: options.newLeaseId ?? (() => randomBytes(18).toString('base64url')),
    };
    if (options.detachedDeadlineMs !== undefined) brokerOptions.detachedDeadlineMs = options.detachedDeadlineMs;
    if (options.restartLimit !== undefined) brokerOptions.restartLimit = options.restartLimit;
    if (options.requestTimeoutMs !== undefined) brokerOptions.requestTimeoutMs = options.requestTimeoutMs;
    if (options.holderProbeMs !== undefined) brokerOptions.holderProbeMs = options.holderProbeMs;
    this.broker = new LeaseBroker(brokerOptions);
    this.timers = new LeaseTimers(this.clock, (timerId) => this.dispatch({ type: 'timerFired', timerId }));
    this.upstreams = new UpstreamLinks(
      options.openUpstream,
      {
        frame: (event) => this.dispatch(event),
        closed: (event) => this.dispatch(event),
        openFailed: (language, detail) => options.log.warn('lsp_upstream_failed', { language, detail }),
        backpressure: (leaseId, full) => this.upstreamBackpressure(leaseId, full),
        ignores: (leaseId, method) => this.queue.length === 0 && this.broker.dropsServerNotification(leaseId, method),
        refused: (language, kind) => options.log.warn('lsp_frame_refused', { reason: 'json_too_deep', from: 'server', kind, language }),
      },
      this.clock,
    );
    if (options.leaseStore) {
      this.journal = new LeaseJournal(options.leaseStore, (err) =>
        options.log.error('request_failed', { reason: 'lease_journal_failed', detail: err instanceof Error ? err.message : String(err) }),
      );
    }
    const browsers = { get: (attachmentId: string) => this.attached.get(attachmentId) };
    this.targets = {
      browsers,
      upstreams: this.upstreams,
      timers: this.timers,
      pins: this.pinsTable,
      log: options.log,
      holderProbed: (newcomer, alive) => this.dispatch({ type: alive ? 'holderAnswered' : 'holderSilent', newcomer }),
      ...(options.measured ? { measured: options.measured } : {}),
    };
  }

  /** Which task hosts live leases pin (idle reclaim must leave those alone). */
  get pins(): TaskHostPinView {
    return this.pinsTable;
  }

  metrics(): BrokerMetrics {
    return this.broker.metrics();
  }

  /** Read-only lease views, for tests and diagnostics. */
  leases(): LeaseView[] {
    return this.broker.leases();
  }

  /**
   * Hands an admitted browser connection to the broker. It is read once the broker attached it to
   * a lease, which may wait for the broker's holder probe (C05/C10, broker/holderProbe.ts).
   */
  attach(browser: BrowserEndpoint, request: LeaseRequest): void {
    const attachmentId = `a${++this.nextAttachment}`;
    this.attached.set(attachmentId, browser);
    browser.onClose(() => {
      this.attached.delete(attachmentId);
      this.unread.delete(attachmentId);
      this.dispatch({ type: 'browserClosed', attachmentId });
    });
    browser.onWriteTimeout(() => this.dispatch({ type: 'browserWriteTimedOut', attachmentId }));
    browser.onBackpressure((full) => this.browserBackpressure(attachmentId, full));
    const connected: BrokerEvent = {
      type: 'browserConnected',
      attachmentId,
      sessionId: request.sessionId,
      language: request.language,
      userId: LOCAL_USER,
      // The gateway refused unsupported executors (4004) before handing the connection over.
      executorSupported: true,
      settings: this.options.settings(),
      trustWorkspaceTools: this.options.workspaceTrusted?.(request.sessionId) ?? false,
    };
    if (request.leaseHint !== undefined) connected.leaseHint = request.leaseHint;
    if (request.ownerKind === 'agent') connected.ownerKind = 'agent';
    this.unread.set(attachmentId, browser);
    this.dispatch(connected);
  }

  /** Starts reading the sockets the broker attached since; refused ones (4005, stopping) are closed. */
  private readAdmitted(): void {
    for (const [attachmentId, browser] of this.unread) {
      if (browser.isClosed) {
        this.unread.delete(attachmentId);
        continue;
      }
      if (this.broker.leaseOf(attachmentId) === undefined) continue; // its holder probe is under way
      this.unread.delete(attachmentId);
      browser.onFrame((frame) => this.dispatch({ type: 'browserFrame', attachmentId, frame: parsedFrame(frame) }));
      browser.resume();
    }
  }

  /**
   * Byte backpressure, browser side: while more than the high watermark waits to be written to a
   * browser, its lease's upstream is not read, so the server's stdout (through agentctl) waits
   * instead of the heap. The write deadline still bounds the wait: a browser that makes no
   * progress for 5 s is detached, and its close releases the upstream to be drained again.
   */
  private browserBackpressure(attachmentId: string, full: boolean): void {
    if (full) {
      const leaseId = this.broker.leaseOf(attachmentId);
      if (leaseId === undefined || this.upstreamsHeldBy.has(attachmentId)) return;
      const holdMs = this.options.slowBrowserHoldMs ?? SLOW_BROWSER_HOLD_MS;
      const hold = after(this.clock, holdMs, () => this.browserTooSlow(attachmentId));
      this.upstreamsHeldBy.set(attachmentId, { leaseId, hold });
      this.upstreams.throttle(leaseId, true);
      return;
    }
    const held = this.upstreamsHeldBy.get(attachmentId);
    if (held === undefined) return;
    this.upstreamsHeldBy.delete(attachmentId);
    held.hold.dispose();
    this.upstreams.throttle(held.leaseId, false);
  }

  /** The browser held its upstream too long: detached like one past its write deadline. */
  private browserTooSlow(attachmentId: string): void {
    const browser = this.attached.get(attachmentId);
    if (!browser) return;
    this.options.log.warn('lsp_peer_unresponsive', { peer: 'browser', reason: 'backlog_not_drained' });
    this.dispatch({ type: 'browserWriteTimedOut', attachmentId });
    // The close frame would queue behind the backlog the browser is not taking: drop the socket.
    browser.terminate();
  }

  /** Byte backpressure, upstream side: while agentctl does not take our writes, the browser is not read. */
  private upstreamBackpressure(leaseId: string, full: boolean): void {
    if (full) {
      const attachmentId = this.broker.lease(leaseId)?.attachmentId;
      const browser = attachmentId === undefined ? undefined : this.attached.get(attachmentId);
      if (!browser) return;
      this.browsersHeldBy.set(leaseId, browser);
      browser.throttle(true);
      return;
    }
    const browser = this.browsersHeldBy.get(leaseId);
    this.browsersHeldBy.delete(leaseId);
    browser?.throttle(false);
  }

  /** The settings API persisted a change: affected servers hear `workspace/didChangeConfiguration`. */
  settingsChanged(settings: UserSettings): void {
    this.dispatch({ type: 'settingsChanged', userId: LOCAL_USER, settings });
  }

  /**
   * A lease of the previous backend process, rebuilt detached on its live server (docs/restarts.md):
   * its stream is resumed, its hint routes to it again.
   */
  adoptLease(lease: AdoptedLeaseState): void {
    this.dispatch({ type: 'leaseAdopted', lease, settings: this.options.settings() });
  }

  /** The session's task host stopped: its leases end now (agentctl reaps their processes). */
  sessionStopped(sessionId: string): void {
    this.dispatch({ type: 'sessionStopped', sessionId });
  }

  /**
   * Backend shutdown: every lease ends (`shutdown`), its effects are carried out, and this settles
   * once agentctl completed the close of every task-host stream (bounded). Timers are dropped.
   */
  async shutdown(): Promise<void> {
    this.dispatch({ type: 'shutdown' });
    await this.upstreams.drained(this.options.shutdownDrainMs ?? SHUTDOWN_DRAIN_MS);
    this.timers.cancelAll();
  }

  private dispatch(event: BrokerEvent): void {
    this.queue.push(event);
    if (this.draining) return;
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        const effects = this.broker.handle(next, this.clock.now());
        for (const effect of effects) {
          try {
            performEffect(effect, this.targets);
          } catch (err) {
            // One failed write must not strand the effects after it (a slot release, a close).
            this.options.log.error('request_failed', {
              reason: 'lease_effect_failed',
              effect: effect.type,
              detail: err instanceof Error ? err.message : String(err),
            });
          }
        }
        // Inside the loop: a socket that starts reading may report frames at once, queued behind.
        if (this.unread.size > 0) this.readAdmitted();
      }
      if (this.journal) this.journal.sync(this.broker.journalChanges(this.journal.signatures));
    } finally {
      this.draining = false;
    }
  }
}

function parsedFrame(frame: BrowserFrame): Extract<BrokerEvent, { type: 'browserFrame' }>['frame'] {
  if (frame.kind === 'control') return { kind: 'control', frame: frame.frame };
  return frame.raw ? { kind: 'jsonrpc', message: frame.message, raw: frame.raw } : { kind: 'jsonrpc', message: frame.message };
}
