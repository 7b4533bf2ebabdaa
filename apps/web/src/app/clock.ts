import { createContext, useContext, useEffect, useState } from 'react';
import type { Disposable } from '../lib/lsp/disposable.js';

/**
 * The clock of elapsed times and the long-initialize notice. In the app it is the page's own
 * Date.now and setInterval (a browser test fakes them with Playwright's page.clock); unit tests
 * pass a fake through ClockContext. Nothing in the UI reads time any other way.
 */
export interface Clock {
  now(): number;
  every(ms: number, fn: () => void): Disposable;
}

export const realClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const handle = globalThis.setInterval(fn, ms);
    return { dispose: () => globalThis.clearInterval(handle) };
  },
};

export const ClockContext = createContext<Clock>(realClock);

/** The current time; while `ticking` (elapsed time is on screen) the component re-renders every `intervalMs`. */
export function useNow(ticking: boolean, intervalMs = 1000): number {
  const clock = useContext(ClockContext);
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!ticking) return;
    const timer = clock.every(intervalMs, () => setTick((n) => n + 1));
    return () => timer.dispose();
  }, [clock, ticking, intervalMs]);
  return clock.now();
}
