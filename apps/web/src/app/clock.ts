import { systemClock, type Clock } from '@kandev/kit';
import { createContext, useContext, useEffect, useState } from 'react';

/**
 * The clock of elapsed times and the long-initialize notice: the kit's one Clock interface. In the
 * app it is the system clock (the page's own Date.now and setInterval, which a browser test fakes
 * with Playwright's page.clock); unit tests pass a ManualClock through ClockContext. Nothing in the
 * UI reads time any other way.
 */
export const ClockContext = createContext<Clock>(systemClock);

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
