import { languageDescriptor, type LanguageId } from './languages/index.js';
import { isRecord } from './records.js';
import { editorFeatureOn, type EditorFeatureSettings } from './settings.js';

/**
 * What Kandev tells a server before anything the user configured, from its language's descriptor:
 * its settings defaults with the network-off settings over them (a task host may have no route
 * out, and a download per opened file would leak which files a person opens). The user's
 * per-language JSON (lsp_server_configs) is merged over these, key by key, so a person who wants
 * the schema store can turn it back on explicitly.
 */
function defaultsOf(language: LanguageId, part: 'settings' | 'initializationOptions'): Record<string, unknown> | undefined {
  const d = languageDescriptor(language);
  const networkOff = d.networkOff.kind === 'settings' ? d.networkOff[part] : {};
  // Network-off keys first (the order servers have always been sent), and they win over the defaults.
  const merged = mergeJson(mergeJson({ ...networkOff }, d.serverSettings[part]), networkOff);
  return Object.keys(merged).length === 0 ? undefined : merged;
}

export function serverDefaultConfig(language: LanguageId): Record<string, unknown> | undefined {
  return defaultsOf(language, 'settings');
}

export function serverInitializationOptions(language: LanguageId): Record<string, unknown> | undefined {
  return defaultsOf(language, 'initializationOptions');
}

/** `over` merged onto `base` recursively for objects; any other value of `over` replaces. */
export function mergeJson(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? mergeJson(current, value) : value;
  }
  return out;
}

/** Server settings that follow the editor's per-language switches (lsp_editor_features). */
export function editorFeatureConfig(language: LanguageId, features: EditorFeatureSettings | undefined): Record<string, unknown> | undefined {
  const { inlayHintSettings: inlayHints, codeLens } = languageDescriptor(language).serverSettings;
  let out: Record<string, unknown> | undefined;
  if (features?.inlay_hints === true && Object.keys(inlayHints).length > 0) out = mergeJson({}, inlayHints);
  if (codeLens && editorFeatureOn(features, language, 'code_lens') && Object.keys(codeLens.settings).length > 0) out = mergeJson(out ?? {}, codeLens.settings);
  return out;
}

/**
 * The configuration a server is answered with: Kandev's defaults, then what the editor switches
 * imply, then the user's JSON over both (a person's explicit setting always wins).
 */
export function effectiveServerConfig(
  language: LanguageId,
  userConfig: Record<string, unknown> | undefined,
  features?: EditorFeatureSettings,
): Record<string, unknown> | undefined {
  const layers = [serverDefaultConfig(language), editorFeatureConfig(language, features), userConfig].filter(
    (l): l is Record<string, unknown> => l !== undefined,
  );
  if (layers.length === 0) return undefined;
  if (layers.length === 1) return layers[0];
  return layers.reduce((base, over) => mergeJson(base, over));
}

/** The `initialize` params with Kandev's options for this language merged under the client's own. */
export function withInitializationOptions(language: LanguageId, params: unknown): unknown {
  const options = serverInitializationOptions(language);
  if (!options || !isRecord(params)) return params;
  const client = isRecord(params.initializationOptions) ? params.initializationOptions : {};
  return { ...params, initializationOptions: mergeJson(options, client) };
}
