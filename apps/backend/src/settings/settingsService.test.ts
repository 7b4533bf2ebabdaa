import { DEFAULT_SETTINGS, type UserSettings } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../base/log.js';
import type { SettingsRepository } from '../store/settingsRepository.js';
import { SettingsService } from './settingsService.js';

function setup() {
  let stored: UserSettings | undefined;
  const repository = {
    read: () => ({ settings: stored ?? DEFAULT_SETTINGS }),
    write: (settings: UserSettings) => {
      stored = settings;
    },
  } as unknown as SettingsRepository;
  const lines: string[] = [];
  return { service: new SettingsService(repository, createLogger({ targets: [{ lines: (line) => lines.push(line) }] })), lines };
}

describe('SettingsService change notification', () => {
  it('a throwing listener is logged; the update is stored and the other listeners still hear it', () => {
    const { service, lines } = setup();
    const heard: string[][] = [];
    service.onChange(() => {
      throw new Error('listener broke');
    });
    service.onChange(({ next }) => heard.push(next.lsp_auto_install_languages));
    const updated = service.update({ lsp_auto_install_languages: ['go'] });
    expect(updated.ok).toBe(true);
    expect(service.get().lsp_auto_install_languages).toEqual(['go']);
    expect(heard).toEqual([['go']]);
    expect(lines.some((line) => line.includes('listener_failed'))).toBe(true);
  });

  it('disposing a subscription stops its notifications', () => {
    const { service } = setup();
    const heard: unknown[] = [];
    const subscription = service.onChange((change) => heard.push(change));
    subscription.dispose();
    service.update({ lsp_auto_install_languages: ['go'] });
    expect(heard).toEqual([]);
  });
});
