import { describe, expect, it } from 'vitest';
import { ignoreMonacoCancellations, isMonacoCancellation } from './monacoCancellations.js';

/** Monaco's own error class, as its code defines it (name set from the message). */
class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = this.message;
  }
}

function rejectionTarget() {
  const listeners = new Set<(event: PromiseRejectionEvent) => void>();
  return {
    addEventListener: (_type: string, listener: (event: PromiseRejectionEvent) => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: PromiseRejectionEvent) => void) => listeners.delete(listener),
    /** Dispatches an unhandled rejection; true when a listener prevented its report. */
    reject(reason: unknown): boolean {
      let prevented = false;
      const event = { reason, preventDefault: () => (prevented = true) } as unknown as PromiseRejectionEvent;
      for (const listener of listeners) listener(event);
      return prevented;
    },
    count: () => listeners.size,
  };
}

describe('ignoreMonacoCancellations', () => {
  it("drops Monaco's cancellation and reports every other rejection", () => {
    const target = rejectionTarget();
    const ignoring = ignoreMonacoCancellations(target as never);
    expect(target.reject(new CancellationError())).toBe(true);
    expect(target.reject(new Error('Canceled'))).toBe(false);
    expect(target.reject(new Error('the language server did not answer within 30 s'))).toBe(false);
    expect(target.reject('Canceled')).toBe(false);
    expect(target.reject(undefined)).toBe(false);
    ignoring.dispose();
    expect(target.count()).toBe(0);
    expect(target.reject(new CancellationError())).toBe(false);
  });

  it('knows the error by its name and message together', () => {
    expect(isMonacoCancellation(new CancellationError())).toBe(true);
    const named = new Error('something else');
    named.name = 'Canceled';
    expect(isMonacoCancellation(named)).toBe(false);
  });
});
