import type { Event } from '@kandev/kit';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * Reads a store's snapshot and re-renders when its change event fires. Stores register listeners
 * the one way the house does (an Event returning a Disposable); React's external-store hook wants
 * an unsubscribe function, so this adapts one to the other in a single place.
 */
export function useSnapshot<E, T>(onDidChange: Event<E>, getSnapshot: () => T): T {
  const subscribe = useCallback(
    (listener: () => void) => {
      const registration = onDidChange(() => listener());
      return () => registration.dispose();
    },
    [onDidChange],
  );
  // The same snapshot on the server: unit tests render views with react-dom/server.
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
