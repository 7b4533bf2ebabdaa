/**
 * Time for the lease wiring: the broker is told `now` with every event and asks for timers at
 * absolute times. Production uses the system clock; tests inject a ManualClock so the one-hour
 * detached deadline or the 30 s request budget pass without waiting.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fire` once, at or after `atMs` on this clock. Returns the cancel function. */
  schedule(atMs: number, fire: () => void): () => void;
}

/** The longest delay setTimeout takes (about 24.8 days); longer waits re-arm. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule(atMs, fire) {
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      const delay = atMs - Date.now();
      if (delay <= 0) {
        timer = undefined;
        fire();
        return;
      }
      timer = setTimeout(arm, Math.min(delay, MAX_TIMEOUT_MS));
      // A pending deadline never keeps a stopping process alive: shutdown clears them anyway.
      timer.unref();
    };
    timer = setTimeout(arm, Math.max(0, Math.min(atMs - Date.now(), MAX_TIMEOUT_MS)));
    timer.unref();
    return () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    };
  },
};

/** A clock that only moves when told to; due timers fire in time order on `advance`. */
export class ManualClock implements Clock {
  private current: number;
  private readonly timers = new Map<number, { atMs: number; fire: () => void }>();
  private nextId = 1;

  constructor(startMs = Date.UTC(2025, 0, 1, 12, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  schedule(atMs: number, fire: () => void): () => void {
    const id = this.nextId++;
    this.timers.set(id, { atMs, fire });
    return () => this.timers.delete(id);
  }

  /** Timers armed and not yet fired or cancelled. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that comes due, earliest first. */
  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      let due: [number, { atMs: number; fire: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].atMs <= until && (!due || entry[1].atMs < due[1].atMs)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].atMs);
      due[1].fire();
    }
    this.current = until;
  }
}
