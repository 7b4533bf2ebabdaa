import { useEffect, useState, useSyncExternalStore } from 'react';
import { currentFormFactor, type FormFactor } from '../device/formFactor.js';
import { parseRoute, type Route } from './route.js';

function subscribeHash(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribeHash, () => window.location.hash);
  const [route, setRoute] = useState(() => parseRoute(hash));
  useEffect(() => setRoute(parseRoute(hash)), [hash]);
  return route;
}

/** Follows viewport and pointer changes (a rotated tablet, a resized window). */
export function useFormFactor(): FormFactor {
  const [value, setValue] = useState(currentFormFactor);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const queries = ['(max-width: 640px)', '(pointer: coarse)'].map((q) => window.matchMedia(q));
    const update = () => setValue(currentFormFactor());
    for (const q of queries) q.addEventListener('change', update);
    return () => {
      for (const q of queries) q.removeEventListener('change', update);
    };
  }, []);
  return value;
}
