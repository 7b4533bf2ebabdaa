import { after, type Clock, type Disposable } from '@kandev/kit';
import type { TaskHostPinView } from './taskHostPins.js';
import type { Logger } from '../base/log.js';

export interface IdleReclaimerOptions {
  /** How long a running, unpinned task host may go without use before it is stopped; 0 disables. */
  idleMs: number;
  clock: Clock;
  /** Live leases pin their task host: it is never reclaimed while pinned (docs/architecture.md section 5). */
  pins: TaskHostPinView;
  isRunning(sessionId: string): boolean;
  stop(sessionId: string): Promise<unknown>;
  log: Logger;
}

/**
 * Reclaims idle task hosts: a session whose task host has no lease pinning it and has served no
 * files request for `idleMs` is stopped, which reaps everything it runs. Each session has at most
 * one armed deadline; any use or pin change re-arms or cancels it, so a stale deadline never stops
 * a task host that is in use.
 */
export class IdleReclaimer {
  private readonly deadlines = new Map<string, Disposable>();
  private readonly pinChanges: Disposable;

  constructor(private readonly options: IdleReclaimerOptions) {
    this.pinChanges = options.pins.onChange(({ sessionId, pinned }) => (pinned ? this.cancel(sessionId) : this.arm(sessionId)));
  }

  /** The task host started, or served a request: its idle time starts again. */
  touch(sessionId: string): void {
    if (this.options.pins.isPinned(sessionId)) return;
    this.arm(sessionId);
  }

  /** The session ended by any path: nothing left to reclaim. */
  ended(sessionId: string): void {
    this.cancel(sessionId);
  }

  dispose(): void {
    this.pinChanges.dispose();
    for (const deadline of this.deadlines.values()) deadline.dispose();
    this.deadlines.clear();
  }

  private arm(sessionId: string): void {
    if (this.options.idleMs <= 0 || !this.options.isRunning(sessionId)) return;
    this.cancel(sessionId);
    const deadline = after(this.options.clock, this.options.idleMs, () => this.fire(sessionId, deadline));
    this.deadlines.set(sessionId, deadline);
  }

  private cancel(sessionId: string): void {
    this.deadlines.get(sessionId)?.dispose();
    this.deadlines.delete(sessionId);
  }

  private fire(sessionId: string, deadline: Disposable): void {
    // Only the deadline armed last may act; pins and liveness are checked again at firing time.
    if (this.deadlines.get(sessionId) !== deadline) return;
    this.deadlines.delete(sessionId);
    if (this.options.pins.isPinned(sessionId) || !this.options.isRunning(sessionId)) return;
    this.options.log.info('task_host_reclaimed', { sessionId, reason: 'idle' });
    void this.options.stop(sessionId);
  }
}
