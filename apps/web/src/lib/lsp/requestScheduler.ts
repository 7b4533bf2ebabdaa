import { after, type Clock, type Disposable } from '@kandev/kit';
import { CancelSource } from './cancellation.js';
import { EndpointClosedError, RequestCancelledError, type CancellationLike } from './jsonRpc.js';
import { requestClassOf, TYPING_NOTIFICATIONS } from './requestClasses.js';

/** How long the person must be quiet (no keystroke, no request of theirs waiting) before background work goes out. */
export const PERSON_PAUSE_MS = 750;

export type SendRequest = (method: string, params: unknown, token?: CancellationLike) => Promise<unknown>;

export interface RequestSchedulerOptions {
  clock: Clock;
  send: SendRequest;
  pauseMs?: number;
}

/** One background request, kept until its caller has an answer (or gives up): it may be sent more than once. */
interface Job {
  method: string;
  params: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** The attempt on the wire; cancelling it sends `$/cancelRequest`. */
  attempt?: CancelSource;
  callerSubscription?: { dispose(): void };
  /** It was on the wire once and cancelled there: its next attempt is a resend. */
  interrupted?: boolean;
}

/** What the scheduler did, for tests and the typing bench. */
export interface SchedulerCounts {
  /** Background requests that waited for the person to pause before going out. */
  held: number;
  /** Background requests cancelled at the server because the person typed or asked. */
  interrupted: number;
  /** Interrupted requests sent again once the person paused. */
  resent: number;
}

/**
 * The person's requests go first. A language server answers one request at a time, so a
 * completion asked right after a big file opens would otherwise wait behind the editor's own burst
 * (tokens, outline, folding, hints, diagnostics). Classes come from the method table
 * (requestClasses.ts):
 *
 * - while the person types (a document changes, before its debounced didChange goes out) or waits
 *   for a request of theirs, background requests are held back, and those already on the wire are
 *   cancelled at the server (`$/cancelRequest`) and held too;
 * - once the person has been quiet for `pauseMs` with nothing of theirs pending, everything held
 *   goes out in the order it was first asked; its callers get the answer as if nothing happened,
 *   only later, so nothing on screen is lost;
 * - a caller giving up (its token) drops its request wherever it is, cancelling it at the server
 *   when it is on the wire (a completion superseded by the next keystroke is cancelled the same
 *   way, by the endpoint).
 *
 * The whole connection is one queue: another document's outline delays this completion as much as
 * this document's. Methods the table does not know pass straight through.
 */
export class RequestScheduler implements Disposable {
  private readonly pauseMs: number;
  private personPending = 0;
  /** Background work may go out at or after this moment (if nothing of the person's is pending). */
  private quietAt = 0;
  private readonly held: Job[] = [];
  private readonly onWire = new Set<Job>();
  private timer?: Disposable;
  private disposed = false;
  readonly counts: SchedulerCounts = { held: 0, interrupted: 0, resent: 0 };

  constructor(private readonly options: RequestSchedulerOptions) {
    this.pauseMs = options.pauseMs ?? PERSON_PAUSE_MS;
  }

  request<R>(method: string, params: unknown, token?: CancellationLike): Promise<R> {
    const kind = this.disposed ? undefined : requestClassOf(method, params);
    if (kind === 'person') return this.person(method, params, token) as Promise<R>;
    if (kind === 'background') return this.background(method, params, token) as Promise<R>;
    return this.options.send(method, params, token) as Promise<R>;
  }

  /** A notification is going out: a typing one makes the person active (call before sending it). */
  noteNotification(method: string): void {
    if (!this.disposed && TYPING_NOTIFICATIONS.has(method)) this.personActive();
  }

  /**
   * A document changed in the page: the person is typing, even while the didChange waits for its
   * debounce (it leaves only once the keystrokes stop, with the trigger's completion, which is when
   * a request on the wire would otherwise first be cancelled).
   */
  noteEdit(): void {
    if (!this.disposed) this.personActive();
  }

  /** Is background work held right now? */
  get holding(): boolean {
    return this.personPending > 0 || this.options.clock.now() < this.quietAt;
  }

  private person(method: string, params: unknown, token: CancellationLike | undefined): Promise<unknown> {
    // Cancel what is in the way before the person's request reaches the server's queue.
    this.personActive();
    this.personPending++;
    const done = () => {
      this.personPending--;
      this.personActive();
    };
    const sent = this.options.send(method, params, token);
    sent.then(done, done);
    return sent;
  }

  private personActive(): void {
    this.quietAt = Math.max(this.quietAt, this.options.clock.now() + this.pauseMs);
    this.interrupt();
    this.arm();
  }

  private background(method: string, params: unknown, token: CancellationLike | undefined): Promise<unknown> {
    if (token?.isCancellationRequested) return Promise.reject(new RequestCancelledError());
    return new Promise((resolve, reject) => {
      const job: Job = { method, params, resolve, reject };
      job.callerSubscription = token?.onCancellationRequested(() => this.giveUp(job));
      if (this.holding) {
        this.counts.held++;
        this.held.push(job);
        this.arm();
      } else {
        this.dispatch(job);
      }
    });
  }

  private dispatch(job: Job): void {
    const attempt = new CancelSource();
    job.attempt = attempt;
    this.onWire.add(job);
    this.options.send(job.method, job.params, attempt.token).then(
      (value) => {
        if (job.attempt !== attempt) return; // interrupted: a later attempt answers
        this.finish(job);
        job.resolve(value);
      },
      (error: Error) => {
        if (job.attempt !== attempt) return;
        this.finish(job);
        job.reject(error);
      },
    );
  }

  private finish(job: Job): void {
    this.onWire.delete(job);
    job.attempt = undefined;
    job.callerSubscription?.dispose();
  }

  /** The caller gave up: drop it, cancelling its attempt at the server when one is on the wire. */
  private giveUp(job: Job): void {
    const index = this.held.indexOf(job);
    if (index >= 0) this.held.splice(index, 1);
    const attempt = job.attempt;
    if (attempt) {
      this.finish(job);
      attempt.cancel();
    } else if (index < 0) {
      return; // already settled
    }
    job.callerSubscription?.dispose();
    job.reject(new RequestCancelledError());
  }

  /** Background work on the wire is cancelled at the server and held again, ahead of what was held since. */
  private interrupt(): void {
    if (this.onWire.size === 0) return;
    const interrupted = [...this.onWire];
    this.onWire.clear();
    for (const job of interrupted) {
      const attempt = job.attempt;
      job.attempt = undefined;
      job.interrupted = true;
      attempt?.cancel();
    }
    this.counts.interrupted += interrupted.length;
    this.held.unshift(...interrupted);
  }

  private arm(): void {
    if (this.timer || this.held.length === 0 || this.personPending > 0 || this.disposed) return;
    const wait = Math.max(0, this.quietAt - this.options.clock.now());
    this.timer = after(this.options.clock, wait, () => {
      this.timer = undefined;
      this.release();
    });
  }

  private release(): void {
    if (this.disposed) return;
    if (this.holding) {
      this.arm();
      return;
    }
    const jobs = this.held.splice(0);
    for (const job of jobs) {
      if (job.interrupted) this.counts.resent++;
      this.dispatch(job);
    }
  }

  /** The generation ended: what never went out rejects like the endpoint's own pending requests. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.timer?.dispose();
    this.timer = undefined;
    for (const job of this.held.splice(0)) {
      job.callerSubscription?.dispose();
      job.reject(new EndpointClosedError());
    }
    // Those on the wire reject with the endpoint's own EndpointClosedError as it ends.
  }
}
