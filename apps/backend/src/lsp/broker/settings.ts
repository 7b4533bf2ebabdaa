/**
 * The latest persisted settings per user, with a revision that moves on every real change. The
 * broker owns what servers are told: `workspace/configuration` is always answered from here, and a
 * change reaches every affected lease (attached or not) as `workspace/didChangeConfiguration`.
 */
import { configurationSection, effectiveServerConfig, type LanguageId, type TraceLevel, type UserSettings, isRecord } from '@kandev/protocol';
import type { ConfigurationParams } from 'vscode-languageserver-protocol';
import { notification, stableJson } from './jsonrpc.js';
import type { JsonRpcMessage, UserId } from './types.js';

interface Entry {
  revision: number;
  settings: UserSettings;
  json: string;
}

export class SettingsBook {
  private readonly byUser = new Map<UserId, Entry>();

  /** Records the user's settings; true when they differ from what was known (revision moved). */
  observe(userId: UserId, settings: UserSettings): boolean {
    const json = stableJson(settings);
    const known = this.byUser.get(userId);
    if (known && known.json === json) return false;
    this.byUser.set(userId, { revision: (known?.revision ?? 0) + 1, settings, json });
    return true;
  }

  revision(userId: UserId): number {
    return this.byUser.get(userId)?.revision ?? 0;
  }

  /**
   * The per-language JSON handed to servers: Kandev's network-off defaults (the language descriptors),
   * the settings the editor switches imply (TypeScript inlay hint preferences), the user's JSON
   * over them; undefined when none has any.
   */
  languageConfig(userId: UserId, language: LanguageId): Record<string, unknown> | undefined {
    const settings = this.byUser.get(userId)?.settings;
    return effectiveServerConfig(language, settings?.lsp_server_configs[language], settings?.lsp_editor_features[language]);
  }

  /** The trace level the user set for the language (undefined: never set, or an older settings shape). */
  traceLevel(userId: UserId, language: LanguageId): TraceLevel | undefined {
    return this.byUser.get(userId)?.settings.lsp_trace_levels?.[language];
  }

  autoInstall(userId: UserId, language: LanguageId): boolean {
    return this.byUser.get(userId)?.settings.lsp_auto_install_languages.includes(language) ?? false;
  }
}

/** Fingerprint of a language config, to decide whether a lease is affected by a change. */
export function configFingerprint(config: Record<string, unknown> | undefined): string {
  return stableJson(config ?? {});
}

/** The `workspace/configuration` result: one value per item, narrowed by its `section`. */
export function configurationResult(params: unknown, config: Record<string, unknown> | undefined): unknown[] {
  const items = isRecord(params) ? (params as Partial<ConfigurationParams>).items : undefined;
  if (!Array.isArray(items)) return [];
  return items.map((item) => configurationSection(config, isRecord(item) && typeof item.section === 'string' ? item.section : undefined));
}

/** Push-model servers read `settings`; pull-model servers re-ask with `workspace/configuration`. */
export function didChangeConfiguration(config: Record<string, unknown> | undefined): JsonRpcMessage {
  return notification('workspace/didChangeConfiguration', { settings: config ?? {} });
}
