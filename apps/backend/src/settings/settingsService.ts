import { Emitter, type Disposable } from '@kandev/kit';
import { mergeSettings, type UserSettings } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import { apiError, fail, messageOf, ok, type Result } from '../base/result.js';
import type { SettingsRepository } from '../store/settingsRepository.js';

export interface SettingsChange {
  next: UserSettings;
  previous: UserSettings;
}

/**
 * Current settings plus change notification: a live language server must hear about a changed
 * per-language configuration (workspace/didChangeConfiguration), so the lease broker subscribes
 * (server.ts). The broker also derives `autoInstall` for new task-host streams from these settings.
 */
export class SettingsService {
  private current: UserSettings;
  /** A listener that throws is logged; the update and the other listeners go on. */
  private readonly changes = new Emitter<SettingsChange>((err) => {
    this.log.error('request_failed', { reason: 'listener_failed', detail: messageOf(err) });
  });

  constructor(
    private readonly repository: SettingsRepository,
    private readonly log: Logger,
  ) {
    const { settings, problem } = repository.read();
    if (problem) log.warn('settings_reset', { problem: problem.kind, detail: problem.detail });
    this.current = settings;
  }

  get(): UserSettings {
    return this.current;
  }

  /** Validates and applies a partial update; nothing is stored when any field is invalid. */
  update(patch: unknown): Result<UserSettings> {
    const merged = mergeSettings(this.current, patch);
    if (!merged.ok) {
      const { field, message } = merged.error;
      return fail(apiError('bad_request', field ? `${field}: ${message}` : message));
    }
    const previous = this.current;
    this.repository.write(merged.settings);
    this.current = merged.settings;
    this.log.info('settings_updated', { fields: Object.keys(patch as object).join(',') });
    this.changes.fire({ next: merged.settings, previous });
    return ok(merged.settings);
  }

  /** Subscribes; disposing the result unsubscribes. */
  onChange(listener: (change: SettingsChange) => void): Disposable {
    return this.changes.event(listener);
  }
}
