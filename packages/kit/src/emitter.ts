import { type Disposable, toDisposable, noopDisposable } from './disposable.js';

export type Listener<T> = (value: T) => void;
/** Registers a listener; disposing the result unregisters it. */
export type Event<T> = (listener: Listener<T>) => Disposable;

/** Where an emitter reports a listener that threw; the default logs it and carries on. */
export type ListenerErrorHandler = (error: unknown) => void;

const reportToConsole: ListenerErrorHandler = (error) => {
  console.error('a listener threw; the other listeners still ran', error);
};

/**
 * A minimal event source. A listener that throws is reported and never stops the listeners after
 * it (one tab's broken handler must not starve its neighbours). Listeners added during `fire` see
 * the next event, not this one; a listener removed during `fire` is not called again.
 */
export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] = [];
  private disposed = false;

  constructor(private readonly onListenerError: ListenerErrorHandler = reportToConsole) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return noopDisposable;
    this.listeners = [...this.listeners, listener];
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(value: T): void {
    const snapshot = this.listeners;
    for (const listener of snapshot) {
      // Skips a listener an earlier one removed in this same fire.
      if (snapshot !== this.listeners && !this.listeners.includes(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.length;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
