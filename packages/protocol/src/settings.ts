import * as z from 'zod/mini';
import { isLanguageId, LANGUAGE_DESCRIPTORS, LANGUAGE_IDS, type LanguageId } from './languages/index.js';
import { isRecord } from './records.js';
import { TRACE_LEVELS } from './serverOutput.js';

export const STATUS_LOCATIONS = ['toolbar', 'status_bar'] as const;
export type StatusLocation = (typeof STATUS_LOCATIONS)[number];
export const LOCALES = ['en', 'pseudo', 'pt-pt', 'zh-cn'] as const;
export type Locale = (typeof LOCALES)[number];

export const EDITOR_FEATURE_KEYS = ['format_on_save', 'format_on_type', 'inlay_hints', 'code_lens'] as const;
export type EditorFeatureKey = (typeof EDITOR_FEATURE_KEYS)[number];

/**
 * A switch's value when the person has not set it: all off, except code lenses, which follow the
 * field (VS Code shows lenses, TypeScript's reference counts excepted; gopls's are on).
 */
export function editorFeatureDefault(language: LanguageId, key: EditorFeatureKey): boolean {
  if (key !== 'code_lens') return false;
  return LANGUAGE_DESCRIPTORS.find((d) => d.id === language)?.serverSettings.codeLens?.byDefault ?? true;
}

/** A switch's effective value: the person's choice, else its default. */
export function editorFeatureOn(settings: Partial<Record<EditorFeatureKey, boolean>> | undefined, language: LanguageId, key: EditorFeatureKey): boolean {
  return settings?.[key] ?? editorFeatureDefault(language, key);
}

/** Languages whose servers can be installed automatically on some task host (their recipe is not `never`). */
export const AUTO_INSTALLABLE_LANGUAGES: readonly LanguageId[] = LANGUAGE_DESCRIPTORS.filter((d) => d.install.kind !== 'never').map((d) => d.id);

const unknownLanguage = (key: unknown) => `unknown language: ${String(key)}`;
/** The language key of a record entry an issue is about (its path's last step). */
const entryKey = (path: readonly PropertyKey[] | undefined) => String(path?.[path.length - 1] ?? '');

/** A list of language ids drawn from `allowed`; repeats are dropped, order kept. */
function languageList(allowed: readonly LanguageId[]) {
  return z.pipe(
    z.array(
      z
        .enum(LANGUAGE_IDS, { error: (issue) => unknownLanguage(issue.input) })
        .check(z.refine((id) => allowed.includes(id), { error: (issue) => `language cannot be used here: ${String(issue.input)}` })),
      { error: 'must be an array of language ids' },
    ),
    z.transform((ids: LanguageId[]) => [...new Set(ids)]),
  );
}

type Issue = { code?: string; input?: unknown; path?: readonly PropertyKey[] };

/**
 * An object whose keys `keyOk` accepts, each value checked by `value`. Its refusals: `notObject`
 * when it is not a JSON object, `badKey(key, path)` for the first key it does not accept.
 */
function keyedRecord<V extends z.ZodMiniType>(
  keyOk: (key: string) => boolean,
  value: V,
  notObject: (issue: Issue) => string,
  badKey: (key: string, issue: Issue) => string,
) {
  return z.record(z.string().check(z.refine(keyOk)), value, {
    error: (issue) => (issue.code === 'invalid_key' ? badKey(String(issue.input), issue) : notObject(issue)),
  });
}

/** An object keyed by language id; `null` for a language removes its entry when merged. */
function perLanguage<V extends z.ZodMiniType>(value: V) {
  return keyedRecord(isLanguageId, z.nullable(value), () => 'must be an object keyed by language id', unknownLanguage);
}

const serverConfig = z.record(z.string(), z.unknown(), { error: (issue) => `${entryKey(issue.path)}: configuration must be a JSON object` });
const editorFeatures = keyedRecord(
  (key) => (EDITOR_FEATURE_KEYS as readonly string[]).includes(key),
  z.boolean({ error: (issue) => `${(issue.path ?? []).join('.')}: must be true or false` }),
  (issue) => `${entryKey(issue.path)}: must be an object of switches`,
  // The path of a refused key ends with the key itself; the language is the step before it.
  (key, issue) => `${entryKey(issue.path?.slice(0, -1))}: unknown switch ${key}`,
);

/**
 * What `PUT /api/settings` accepts, field by field: each field's schema, with the copy of its
 * refusal. Record fields merge per language onto the current value (see mergeSettings).
 */
const SETTINGS_PATCH = {
  lsp_auto_start_languages: languageList(LANGUAGE_IDS),
  lsp_auto_install_languages: languageList(AUTO_INSTALLABLE_LANGUAGES),
  lsp_server_configs: perLanguage(serverConfig),
  lsp_status_location: z.enum(STATUS_LOCATIONS, { error: 'must be toolbar or status_bar' }),
  show_status_bar: z.boolean({ error: 'must be true or false' }),
  locale: z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` }),
  status_bar_order: z.array(z.string({ error: 'must be an array of strings' }), { error: 'must be an array of strings' }),
  lsp_editor_features: perLanguage(editorFeatures),
  lsp_trace_levels: perLanguage(z.enum(TRACE_LEVELS, { error: (issue) => `${entryKey(issue.path)}: must be off, messages or verbose` })),
};

/** Per-user editor settings. Field names are the HTTP API's; the type is the schema's. */
export const userSettingsSchema = z.object({
  lsp_auto_start_languages: z.array(z.enum(LANGUAGE_IDS)),
  lsp_auto_install_languages: z.array(z.enum(LANGUAGE_IDS)),
  /** Per-language JSON handed to the server through workspace/configuration. */
  lsp_server_configs: z.partialRecord(z.enum(LANGUAGE_IDS), z.record(z.string(), z.unknown())),
  lsp_status_location: z.enum(STATUS_LOCATIONS),
  show_status_bar: z.boolean(),
  locale: z.enum(LOCALES),
  /** Order of the application status-bar items, persisted when the user reorders them. */
  status_bar_order: z.array(z.string()),
  /** Per-language editing switches (format on save / on type, inlay hints); absent means off. */
  lsp_editor_features: z.partialRecord(z.enum(LANGUAGE_IDS), z.partialRecord(z.enum(EDITOR_FEATURE_KEYS), z.boolean())),
  /** Per-language `trace` asked of the server (initialize, then `$/setTrace`); absent means off. */
  lsp_trace_levels: z.partialRecord(z.enum(LANGUAGE_IDS), z.enum(TRACE_LEVELS)),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;
export type EditorFeatureSettings = NonNullable<UserSettings['lsp_editor_features'][LanguageId]>;

export const DEFAULT_SETTINGS: UserSettings = {
  lsp_auto_start_languages: LANGUAGE_DESCRIPTORS.filter((d) => d.autoStartByDefault).map((d) => d.id),
  lsp_auto_install_languages: [],
  lsp_server_configs: {},
  lsp_status_location: 'toolbar',
  show_status_bar: true,
  locale: 'en',
  status_bar_order: [],
  lsp_editor_features: {},
  lsp_trace_levels: {},
};

export type SettingsError = { field: string; message: string };

const isPatchField = (field: string): field is keyof typeof SETTINGS_PATCH => Object.hasOwn(SETTINGS_PATCH, field);

/**
 * Validates a partial settings update and merges it onto `current`. Unknown fields are refused so
 * a typo never silently does nothing. The first wrong field refuses the whole update, named in
 * the error with what is wrong with it.
 */
export function mergeSettings(current: UserSettings, patch: unknown): { ok: true; settings: UserSettings } | { ok: false; error: SettingsError } {
  if (!isRecord(patch)) return { ok: false, error: { field: '', message: 'settings must be a JSON object' } };
  const next: UserSettings = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (!isPatchField(field)) return { ok: false, error: { field, message: 'unknown setting' } };
    const parsed = SETTINGS_PATCH[field].safeParse(value);
    if (!parsed.success) return { ok: false, error: { field, message: parsed.error.issues[0]?.message ?? 'is not valid' } };
    if (field === 'lsp_server_configs')
      next.lsp_server_configs = mergePerLanguage(current.lsp_server_configs, parsed.data as Record<LanguageId, Record<string, unknown> | null>, (_, v) => v);
    else if (field === 'lsp_editor_features')
      next.lsp_editor_features = mergePerLanguage(current.lsp_editor_features, parsed.data as Record<LanguageId, EditorFeatureSettings | null>, (old, v) => ({
        ...old,
        ...v,
      }));
    else if (field === 'lsp_trace_levels')
      next.lsp_trace_levels = mergePerLanguage(
        current.lsp_trace_levels,
        parsed.data as Record<LanguageId, UserSettings['lsp_trace_levels'][LanguageId] | null>,
        (_, v) => v,
      );
    else (next as Record<string, unknown>)[field] = parsed.data;
  }
  return { ok: true, settings: next };
}

/** A per-language patch onto the current entries: `null` removes a language, a value is merged by `merge`. */
function mergePerLanguage<V>(
  current: Partial<Record<LanguageId, V>>,
  patch: Record<LanguageId, V | null>,
  merge: (old: V | undefined, value: V) => V,
): Partial<Record<LanguageId, V>> {
  const out = { ...current };
  for (const [language, value] of Object.entries(patch) as [LanguageId, V | null][]) {
    if (value === null) delete out[language];
    else out[language] = merge(out[language], value);
  }
  return out;
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
