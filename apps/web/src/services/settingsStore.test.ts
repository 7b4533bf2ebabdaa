import { DEFAULT_SETTINGS, type UserSettings } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from './settingsStore.js';

function store(updateSettings: (patch: Record<string, unknown>) => Promise<UserSettings>) {
  const settings = new SettingsStore({ getSettings: async () => DEFAULT_SETTINGS, updateSettings });
  const seen: string[] = [];
  settings.onDidChange(() => seen.push(settings.get()?.locale ?? 'none'));
  settings.onDidChangeEditorFeatures(() => seen.push('editor features'));
  return { settings, seen };
}

describe('SettingsStore', () => {
  it('an update shows at once, then the stored answer; editing preferences hear only their own field', async () => {
    const { settings, seen } = store(async (patch) => ({ ...DEFAULT_SETTINGS, ...patch }) as UserSettings);
    await settings.load();
    seen.length = 0;
    await settings.update({ locale: 'pt-pt' });
    expect(settings.get()?.locale).toBe('pt-pt');
    expect(seen).toEqual(['pt-pt', 'pt-pt']);
    seen.length = 0;
    await settings.update({ lsp_editor_features: { typescript: { format_on_save: true } } });
    expect(seen[0]).toBe('editor features');
  });

  it('a refused save restores what was there and rethrows', async () => {
    const { settings } = store(async () => {
      throw new Error('refused');
    });
    await settings.load();
    await expect(settings.update({ locale: 'zh-cn' })).rejects.toThrow('refused');
    expect(settings.get()?.locale).toBe(DEFAULT_SETTINGS.locale);
  });
});
