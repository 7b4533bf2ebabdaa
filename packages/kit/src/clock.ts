import { type Disposable, toDisposable } from './disposable.js';

/**
 * The one clock of the house. Code that waits asks a Clock, never setTimeout or Date.now directly,
 * so the 2 min install, 60 s notice and 1 h detached timers pass in tests without waiting.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fire` once, at or after `atMs` on this clock; disposing cancels it. */
  schedule(atMs: number, fire: () => void): Disposable;
  /** Calls `fire` every `intervalMs` until disposed. */
  every(intervalMs: number, fire: () => void): Disposable;
}

/** Calls `fire` once, `delayMs` from now on `clock`. */
export function after(clock: Clock, delayMs: number, fire: () => void): Disposable {
  return clock.schedule(clock.now() + delayMs, fire);
}

/** A moment `delayMs` from now on a clock, as a promise to race work against; disposing cancels it. */
export interface Deadline extends Disposable {
  /** Settles when the moment comes; never, once disposed first. */
  readonly reached: Promise<void>;
}

/**
 * `delayMs` from now on `clock`, for code that races a promise against a time limit or sleeps in a
 * polling loop. On systemClock the timer does not keep the process alive, like every clock timer.
 */
export function deadline(clock: Clock, delayMs: number): Deadline {
  let timer: Disposable = { dispose: () => undefined };
  const reached = new Promise<void>((resolve) => {
    timer = after(clock, delayMs, resolve);
  });
  return { reached, dispose: () => timer.dispose() };
}

/** The longest delay setTimeout takes (about 24.8 days); longer waits re-arm. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

type TimerHandle = ReturnType<typeof setTimeout>;

/** A pending timer never keeps a stopping Node process alive (shutdown cancels them anyway). */
function unref(handle: TimerHandle): void {
  if (typeof handle === 'object' && handle !== null && 'unref' in handle) (handle as { unref(): void }).unref();
}

/**
 * systemClock timers still pending (scheduled and not yet fired or disposed, plus every `every`
 * not disposed). Its timers are unref'd, so Node's own count of active resources leaves them out;
 * this is the figure that shows a timer leak (the backend's /metrics reads it).
 */
let pendingSystemTimers = 0;
export function pendingSystemClockTimers(): number {
  return pendingSystemTimers;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule(atMs, fire) {
    let timer: TimerHandle | undefined;
    pendingSystemTimers++;
    const arm = (): void => {
      const delay = atMs - Date.now();
      if (delay <= 0) {
        timer = undefined;
        pendingSystemTimers--;
        fire();
        return;
      }
      timer = setTimeout(arm, Math.min(delay, MAX_TIMEOUT_MS));
      unref(timer);
    };
    timer = setTimeout(arm, Math.max(0, Math.min(atMs - Date.now(), MAX_TIMEOUT_MS)));
    unref(timer);
    return toDisposable(() => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = undefined;
      pendingSystemTimers--;
    });
  },
  every(intervalMs, fire) {
    const handle = setInterval(fire, intervalMs);
    unref(handle);
    pendingSystemTimers++;
    return toDisposable(() => {
      clearInterval(handle);
      pendingSystemTimers--;
    });
  },
};

interface ManualTimer {
  atMs: number;
  fire: () => void;
  /** Set for `every` timers: re-armed this far after each firing. */
  intervalMs?: number;
}

/** A clock that only moves when told to; due timers fire in time order on `advance`. */
export class ManualClock implements Clock {
  private current: number;
  private readonly timers = new Map<number, ManualTimer>();
  private nextId = 1;

  constructor(startMs = Date.UTC(2025, 0, 1, 12, 0, 0)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  schedule(atMs: number, fire: () => void): Disposable {
    const id = this.nextId++;
    this.timers.set(id, { atMs, fire });
    return toDisposable(() => this.timers.delete(id));
  }

  every(intervalMs: number, fire: () => void): Disposable {
    if (!(intervalMs > 0)) throw new RangeError('every() needs a positive interval');
    const id = this.nextId++;
    this.timers.set(id, { atMs: this.current + intervalMs, fire, intervalMs });
    return toDisposable(() => this.timers.delete(id));
  }

  /** Timers armed and not yet fired or cancelled. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that comes due, earliest first. */
  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      let due: [number, ManualTimer] | undefined;
      for (const entry of this.timers) if (entry[1].atMs <= until && (!due || entry[1].atMs < due[1].atMs)) due = entry;
      if (!due) break;
      const [id, timer] = due;
      this.current = Math.max(this.current, timer.atMs);
      if (timer.intervalMs === undefined) this.timers.delete(id);
      else timer.atMs += timer.intervalMs;
      timer.fire();
    }
    this.current = until;
  }
}
