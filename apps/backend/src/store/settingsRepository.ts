import { DEFAULT_SETTINGS, mergeSettings, type UserSettings } from '@kandev/protocol';
import type { Db } from './database.js';

export type StoredSettingsProblem = { kind: 'unreadable' | 'invalid'; detail: string };

/**
 * The user's settings, stored whole. Reads go through `mergeSettings` over the defaults, so a field
 * added in a later release gets its default and a field that was removed is dropped.
 */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  read(): { settings: UserSettings; problem?: StoredSettingsProblem } {
    const row = this.db.prepare('SELECT value FROM settings WHERE id = 1').get() as { value: string } | undefined;
    if (!row) return { settings: DEFAULT_SETTINGS };
    let stored: unknown;
    try {
      stored = JSON.parse(row.value);
    } catch (err) {
      return { settings: DEFAULT_SETTINGS, problem: { kind: 'unreadable', detail: String(err) } };
    }
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) {
      return { settings: DEFAULT_SETTINGS, problem: { kind: 'invalid', detail: 'not a JSON object' } };
    }
    const known = Object.fromEntries(Object.entries(stored).filter(([k]) => k in DEFAULT_SETTINGS));
    const merged = mergeSettings(DEFAULT_SETTINGS, known);
    if (!merged.ok) return { settings: DEFAULT_SETTINGS, problem: { kind: 'invalid', detail: `${merged.error.field}: ${merged.error.message}` } };
    return { settings: merged.settings };
  }

  write(settings: UserSettings): void {
    this.db
      .prepare(
        'INSERT INTO settings (id, value, updated_at) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      )
      .run(JSON.stringify(settings), new Date().toISOString());
  }
}
