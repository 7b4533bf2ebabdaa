/**
 * The one-hour detached deadline of a lease. Each arm moves the epoch; the timer id carries it.
 * Reattaching disarms by moving the epoch too, so a deadline that fires late (its cancel lost in
 * flight) is recognised as stale and can never close a reattached lease.
 */
export const DETACHED_DEADLINE_MS = 60 * 60 * 1000;

export class DetachDeadline {
  private epoch = 0;
  private armed = false;

  /** Arms a new deadline; returns the epoch its timer must carry. */
  arm(): number {
    this.epoch += 1;
    this.armed = true;
    return this.epoch;
  }

  /** Disarms (reattach, release); any timer of an older epoch is stale from now on. */
  disarm(): void {
    this.epoch += 1;
    this.armed = false;
  }

  /** True only for the timer of the deadline armed last and not disarmed since. */
  isCurrent(epoch: number): boolean {
    return this.armed && epoch === this.epoch;
  }

  get currentEpoch(): number {
    return this.epoch;
  }
}
