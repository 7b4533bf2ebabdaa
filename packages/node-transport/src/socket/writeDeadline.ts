import { type Clock, type Disposable, after } from '@kandev/kit';

/**
 * One deadline for a queue of writes: it expires when the queue made no progress for `deadlineMs`.
 * Progress only moves a timestamp; the one armed timer re-arms itself for the time left when it
 * fires early, so a busy relay arms one timer per deadline window instead of one per write. When
 * the queue empties the timer is left to lapse (`idle`) rather than cleared, so a request/response
 * relay that drains after every message does not clear and re-arm a timer per message either.
 */
export class WriteDeadline implements Disposable {
  private timer: Disposable | undefined;
  private lastProgressAt = 0;
  /** Writes are queued and progress is expected; false once the queue drained. */
  private waiting = false;

  constructor(
    private readonly clock: Clock,
    private readonly deadlineMs: number,
    private readonly expired: () => void,
  ) {}

  /** Starts (or restarts) the window: writes are queued and progress is expected from now. */
  progress(): void {
    this.waiting = true;
    this.lastProgressAt = this.clock.now();
    if (this.timer === undefined) this.arm(this.deadlineMs);
  }

  /** Nothing is queued any more: nothing can be late (an armed timer lapses without effect). */
  idle(): void {
    this.waiting = false;
  }

  /** The socket closed: the timer goes too. */
  dispose(): void {
    this.waiting = false;
    this.timer?.dispose();
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    this.timer = after(this.clock, delayMs, () => {
      this.timer = undefined;
      if (!this.waiting) return;
      const left = this.lastProgressAt + this.deadlineMs - this.clock.now();
      if (left > 0) this.arm(left);
      else this.expired();
    });
  }
}
