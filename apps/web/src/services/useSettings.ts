import type { UserSettings } from '@kandev/protocol';
import { useSnapshot } from '../app/useSnapshot.js';
import { useServices } from './ServicesContext.js';

/** The user's settings (undefined until the window loaded them); re-renders when they change. */
export function useSettings(): UserSettings | undefined {
  const { settings } = useServices();
  return useSnapshot(settings.onDidChange, settings.get);
}
