/**
 * Disposables for everything acquired: a provider, a listener, a timer, a socket. A connection
 * cleans up by disposing what it acquired, never by clearing global maps (S30).
 */
export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** Owns a set of disposables and disposes them once, newest first. Adding after disposal disposes at once. */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
      return item;
    }
    this.items.add(item);
    return item;
  }

  /** Forgets an item without disposing it (it was disposed by its owner). */
  delete(item: Disposable): void {
    this.items.delete(item);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items].reverse();
    this.items.clear();
    let first: unknown;
    for (const item of items) {
      try {
        item.dispose();
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== undefined) throw first;
  }
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

/** A minimal event source. Listeners added during `fire` see the next event, not this one. */
export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    this.listeners = [...this.listeners, listener];
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/** Timers behind an interface, so tests drive them with a fake clock. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Arms a timer whose disposal cancels it. */
export function timeout(timers: Timers, ms: number, fn: () => void): Disposable {
  const handle = timers.setTimeout(fn, ms);
  return toDisposable(() => timers.clearTimeout(handle));
}
