import type { SettingsPatch } from '../../services/settingsStore.js';

/** Saves a partial settings update; true when the backend stored it (the page shows the outcome). */
export type SaveSettings = (patch: SettingsPatch) => Promise<boolean>;
