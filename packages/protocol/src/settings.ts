import { isLanguageId, LANGUAGE_DESCRIPTORS, LANGUAGE_IDS, type LanguageId } from './languages/index.js';
import { isRecord } from './records.js';

export const STATUS_LOCATIONS = ['toolbar', 'status_bar'] as const;
export type StatusLocation = (typeof STATUS_LOCATIONS)[number];
export const LOCALES = ['en', 'pseudo', 'pt-pt', 'zh-cn'] as const;
export type Locale = (typeof LOCALES)[number];

/** Per-user editor settings (DESIGN section 9). Field names are the HTTP API's. */
export interface UserSettings {
  lsp_auto_start_languages: LanguageId[];
  lsp_auto_install_languages: LanguageId[];
  /** Per-language JSON handed to the server through workspace/configuration. */
  lsp_server_configs: Partial<Record<LanguageId, Record<string, unknown>>>;
  lsp_status_location: StatusLocation;
  show_status_bar: boolean;
  locale: Locale;
  /** Order of the application status-bar items, persisted when the user reorders them. */
  status_bar_order: string[];
  /** Per-language editing switches (format on save / on type, inlay hints); absent means off. */
  lsp_editor_features: Partial<Record<LanguageId, EditorFeatureSettings>>;
}

export const EDITOR_FEATURE_KEYS = ['format_on_save', 'format_on_type', 'inlay_hints'] as const;
export type EditorFeatureKey = (typeof EDITOR_FEATURE_KEYS)[number];
export type EditorFeatureSettings = Partial<Record<EditorFeatureKey, boolean>>;

export const DEFAULT_SETTINGS: UserSettings = {
  lsp_auto_start_languages: LANGUAGE_DESCRIPTORS.filter((d) => d.autoStartByDefault).map((d) => d.id),
  lsp_auto_install_languages: [],
  lsp_server_configs: {},
  lsp_status_location: 'toolbar',
  show_status_bar: true,
  locale: 'en',
  status_bar_order: [],
  lsp_editor_features: {},
};

/** Languages whose servers can be installed automatically on some task host (their recipe is not `never`). */
export const AUTO_INSTALLABLE_LANGUAGES: readonly LanguageId[] = LANGUAGE_DESCRIPTORS.filter((d) => d.install.kind !== 'never').map((d) => d.id);

export type SettingsError = { field: string; message: string };

function languageList(field: string, value: unknown, allowed: readonly LanguageId[]): LanguageId[] | SettingsError {
  if (!Array.isArray(value)) return { field, message: 'must be an array of language ids' };
  const out: LanguageId[] = [];
  for (const item of value) {
    if (!isLanguageId(item)) return { field, message: `unknown language: ${String(item)}` };
    if (!allowed.includes(item)) return { field, message: `language cannot be used here: ${item}` };
    if (!out.includes(item)) out.push(item);
  }
  return out;
}

/**
 * Validates a partial settings update and merges it onto `current`. Unknown fields are refused so
 * a typo never silently does nothing.
 */
export function mergeSettings(current: UserSettings, patch: unknown): { ok: true; settings: UserSettings } | { ok: false; error: SettingsError } {
  if (!isRecord(patch)) return { ok: false, error: { field: '', message: 'settings must be a JSON object' } };
  const next: UserSettings = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    switch (field) {
      case 'lsp_auto_start_languages':
      case 'lsp_auto_install_languages': {
        const allowed = field === 'lsp_auto_install_languages' ? AUTO_INSTALLABLE_LANGUAGES : LANGUAGE_IDS;
        const parsed = languageList(field, value, allowed);
        if (!Array.isArray(parsed)) return { ok: false, error: parsed };
        next[field] = parsed;
        break;
      }
      case 'lsp_server_configs': {
        if (!isRecord(value)) return { ok: false, error: { field, message: 'must be an object keyed by language id' } };
        const configs: UserSettings['lsp_server_configs'] = { ...current.lsp_server_configs };
        for (const [lang, config] of Object.entries(value)) {
          if (!isLanguageId(lang)) return { ok: false, error: { field, message: `unknown language: ${lang}` } };
          if (config === null) {
            delete configs[lang];
            continue;
          }
          if (!isRecord(config)) return { ok: false, error: { field, message: `${lang}: configuration must be a JSON object` } };
          configs[lang] = config;
        }
        next.lsp_server_configs = configs;
        break;
      }
      case 'lsp_status_location':
        if (!(STATUS_LOCATIONS as readonly unknown[]).includes(value)) return { ok: false, error: { field, message: 'must be toolbar or status_bar' } };
        next.lsp_status_location = value as StatusLocation;
        break;
      case 'show_status_bar':
        if (typeof value !== 'boolean') return { ok: false, error: { field, message: 'must be true or false' } };
        next.show_status_bar = value;
        break;
      case 'locale':
        if (!(LOCALES as readonly unknown[]).includes(value)) return { ok: false, error: { field, message: `must be one of ${LOCALES.join(', ')}` } };
        next.locale = value as Locale;
        break;
      case 'status_bar_order':
        if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return { ok: false, error: { field, message: 'must be an array of strings' } };
        next.status_bar_order = value as string[];
        break;
      case 'lsp_editor_features': {
        if (!isRecord(value)) return { ok: false, error: { field, message: 'must be an object keyed by language id' } };
        const features: UserSettings['lsp_editor_features'] = { ...current.lsp_editor_features };
        for (const [lang, entry] of Object.entries(value)) {
          if (!isLanguageId(lang)) return { ok: false, error: { field, message: `unknown language: ${lang}` } };
          if (entry === null) {
            delete features[lang];
            continue;
          }
          if (!isRecord(entry)) return { ok: false, error: { field, message: `${lang}: must be an object of switches` } };
          const merged: EditorFeatureSettings = { ...features[lang] };
          for (const [key, flag] of Object.entries(entry)) {
            if (!(EDITOR_FEATURE_KEYS as readonly string[]).includes(key)) return { ok: false, error: { field, message: `${lang}: unknown switch ${key}` } };
            if (typeof flag !== 'boolean') return { ok: false, error: { field, message: `${lang}.${key}: must be true or false` } };
            merged[key as EditorFeatureKey] = flag;
          }
          features[lang] = merged;
        }
        next.lsp_editor_features = features;
        break;
      }
      default:
        return { ok: false, error: { field, message: 'unknown setting' } };
    }
  }
  return { ok: true, settings: next };
}

/**
 * The value of one `workspace/configuration` item: the language's JSON, narrowed to a dotted
 * `section` when the server asks for one. Missing sections are `null`, as the LSP spec allows.
 */
export function configurationSection(config: Record<string, unknown> | undefined, section: string | undefined): unknown {
  if (!config) return null;
  if (!section) return config;
  if (section in config) return config[section];
  let node: unknown = config;
  for (const part of section.split('.')) {
    if (!isRecord(node) || !(part in node)) return null;
    node = node[part];
  }
  return node;
}
