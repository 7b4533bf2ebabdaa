import { DEFAULT_SETTINGS, type UserSettings } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { SettingsStore, type SettingsChannel } from './settingsStore.js';

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

  it('a save in another window reaches this one; a malformed message changes nothing', async () => {
    // Two windows on one channel: a message reaches every window but the one that posted it.
    const listeners = new Map<SettingsChannel, (value: unknown) => void>();
    const channel = (): SettingsChannel => {
      const self: SettingsChannel = {
        post: (value) => [...listeners].forEach(([owner, listener]) => owner !== self && listener(value)),
        onMessage: (listener) => (listeners.set(self, listener), { dispose: () => listeners.delete(self) }),
        dispose: () => listeners.delete(self),
      };
      return self;
    };
    const api = {
      getSettings: async () => DEFAULT_SETTINGS,
      updateSettings: async (patch: Record<string, unknown>) => ({ ...DEFAULT_SETTINGS, ...patch }) as UserSettings,
    };
    const settingsTab = new SettingsStore(api, channel());
    const editorTab = new SettingsStore(api, channel());
    await Promise.all([settingsTab.load(), editorTab.load()]);
    const heard: string[] = [];
    editorTab.onDidChangeEditorFeatures(() => heard.push('editor features'));
    await settingsTab.update({ lsp_editor_features: { typescript: { code_lens: true } } });
    expect(heard).toEqual(['editor features']);
    expect(editorTab.get()?.lsp_editor_features.typescript).toEqual({ code_lens: true });
    [...listeners.values()].forEach((listener) => listener({ locale: 'xx' }));
    expect(editorTab.get()?.lsp_editor_features.typescript).toEqual({ code_lens: true });
    expect(heard).toHaveLength(1);
  });
});
