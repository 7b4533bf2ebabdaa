/**
 * Disposables for everything acquired: a provider, a listener, a timer, a socket, a lease. Whoever
 * acquires something cleans up by disposing it, never by clearing global maps (S30).
 */
export interface Disposable {
  dispose(): void;
}

/** Wraps a cleanup function; disposing twice runs it once. */
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

/** A disposable that owns nothing, for paths that acquired nothing. */
export const noopDisposable: Disposable = Object.freeze({ dispose: () => undefined });

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

  /** Disposes every item, even when one throws; the first error is rethrown afterwards. */
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
