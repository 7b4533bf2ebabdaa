import { Emitter, type Disposable, type Event } from '@kandev/kit';
import { mergeSettings, userSettingsSchema, type LanguageId, type UserSettings } from '@kandev/protocol';
import type { KandevApi } from '../api/kandevApi.js';

/** A PUT /api/settings body: any subset of fields; a language's config set to null is deleted. */
export type SettingsPatch = Omit<Partial<UserSettings>, 'lsp_server_configs'> & {
  lsp_server_configs?: Partial<Record<LanguageId, Record<string, unknown> | null>>;
};

/** The windows of this origin: what one saved, the others hear (a BroadcastChannel in the page). */
export interface SettingsChannel extends Disposable {
  post(value: UserSettings): void;
  onMessage(listener: (value: unknown) => void): Disposable;
}

/** The page's channel, or none where BroadcastChannel does not exist. */
export function broadcastSettingsChannel(name = 'kandev-settings'): SettingsChannel | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(name);
  return {
    post: (value) => channel.postMessage(value),
    onMessage(listener) {
      const handler = (event: MessageEvent) => listener(event.data);
      channel.addEventListener('message', handler);
      return { dispose: () => channel.removeEventListener('message', handler) };
    },
    dispose: () => channel.close(),
  };
}

/**
 * The user's settings, fetched once per window (defaults when the backend has none). A save in
 * another window of this origin (the Settings page in a second tab) reaches this one through the
 * channel, so open editors follow it at once (a language's code lenses, format on save) as the
 * task host's servers do, instead of at the next reload.
 */
export class SettingsStore {
  private value: UserSettings | undefined;
  private readonly changes = new Emitter<void>();
  private readonly editorFeatureChanges = new Emitter<void>();
  /** Any field changed: read `get` again. */
  readonly onDidChange: Event<void> = this.changes.event;
  /** `lsp_editor_features` changed (editing preferences: format on save, inlay hints, ...). */
  readonly onDidChangeEditorFeatures: Event<void> = this.editorFeatureChanges.event;

  constructor(
    private readonly api: Pick<KandevApi, 'getSettings' | 'updateSettings'>,
    private readonly channel?: SettingsChannel,
  ) {
    channel?.onMessage((value) => {
      // Only a whole, valid settings object is taken: anything else on the channel is ignored.
      const parsed = userSettingsSchema.safeParse(value);
      if (parsed.success) this.publish(parsed.data);
    });
  }

  get = (): UserSettings | undefined => this.value;

  load(): Promise<UserSettings> {
    return this.api.getSettings().then((value) => {
      this.publish(value);
      return value;
    });
  }

  /**
   * PUT /api/settings with a partial update. The change shows at once; the backend's answer (the
   * whole stored object) replaces it, and a refused or failed save restores what was there.
   */
  async update(patch: SettingsPatch): Promise<UserSettings> {
    const before = this.value;
    // Shown at once, merged exactly as the backend merges (per-language configs, null deletes).
    const optimistic = before ? mergeSettings(before, patch) : undefined;
    if (optimistic?.ok) this.publish(optimistic.settings);
    try {
      const saved = await this.api.updateSettings(patch);
      this.publish(saved);
      this.channel?.post(saved);
      return saved;
    } catch (err) {
      if (before) this.publish(before);
      throw err;
    }
  }

  /** Sets the value without the backend (tests, and the optimistic path above). */
  publish(value: UserSettings): void {
    const previous = this.value;
    this.value = value;
    if (JSON.stringify(previous?.lsp_editor_features) !== JSON.stringify(value.lsp_editor_features)) this.editorFeatureChanges.fire();
    this.changes.fire();
  }
}
