/**
 * The broker's timers on a real (or injected) clock: `armTimer` schedules, `cancelTimer` cancels,
 * and a timer that comes due is fed back as `timerFired`. Cancelling is best effort by contract:
 * the broker recognises a stale fire and ignores it.
 */
import type { Clock, Disposable } from '@kandev/kit';

export class LeaseTimers {
  private readonly armed = new Map<string, Disposable>();

  constructor(
    private readonly clock: Clock,
    private readonly fired: (timerId: string) => void,
  ) {}

  get size(): number {
    return this.armed.size;
  }

  arm(timerId: string, atMs: number): void {
    this.armed.get(timerId)?.dispose();
    const timer = this.clock.schedule(atMs, () => {
      if (this.armed.get(timerId) !== timer) return;
      this.armed.delete(timerId);
      this.fired(timerId);
    });
    this.armed.set(timerId, timer);
  }

  cancel(timerId: string): void {
    this.armed.get(timerId)?.dispose();
    this.armed.delete(timerId);
  }

  cancelAll(): void {
    for (const timer of this.armed.values()) timer.dispose();
    this.armed.clear();
  }
}
