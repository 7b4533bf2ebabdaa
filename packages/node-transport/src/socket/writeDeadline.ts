import { type Clock, type Disposable, after } from '@kandev/kit';

/**
 * One deadline for a queue of writes: it expires when the queue made no progress for `deadlineMs`.
 * Progress only moves a timestamp; the one armed timer re-arms itself for the time left when it
 * fires early, so a busy relay arms one timer per deadline window instead of one per write.
 */
export class WriteDeadline implements Disposable {
  private timer: Disposable | undefined;
  private lastProgressAt = 0;

  constructor(private readonly clock: Clock, private readonly deadlineMs: number, private readonly expired: () => void) {}

  get isArmed(): boolean {
    return this.timer !== undefined;
  }

  /** Starts (or restarts) the window: writes are queued and progress is expected from now. */
  progress(): void {
    this.lastProgressAt = this.clock.now();
    if (this.timer === undefined) this.arm(this.deadlineMs);
  }

  /** Nothing is queued any more: nothing can be late. */
  dispose(): void {
    this.timer?.dispose();
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    this.timer = after(this.clock, delayMs, () => {
      this.timer = undefined;
      const left = this.lastProgressAt + this.deadlineMs - this.clock.now();
      if (left > 0) this.arm(left);
      else this.expired();
    });
  }
}
