import type { LanguageId } from './languages.js';
import { isRecord } from './records.js';
import type { EditorFeatureSettings } from './settings.js';

/**
 * What Kandev tells a server before anything the user configured: settings that keep a server off
 * the network. A task host may have no route out, and a schema store download on every file open
 * would leak which files a person opens. Schemas still work from local files: a document's own
 * `$schema` (relative or file://) and the user's `yaml.schemas` / `json.schemas` settings.
 *
 * The user's per-language JSON (lsp_server_configs) is merged over these, key by key, so a person
 * who wants the schema store can turn it back on explicitly.
 */
const CSS_SECTION = { validate: true, lint: {} };

export const SERVER_DEFAULT_CONFIGS: Readonly<Partial<Record<LanguageId, Record<string, unknown>>>> = {
  // yaml-language-server fetches the schemastore.org catalog at start unless told not to.
  yaml: { yaml: { schemaStore: { enable: false }, validate: true, hover: true, completion: true } },
  // The JSON server's own downloads are closed by its initialization options (below); the
  // setting is what VS Code's client reads, kept so a person sees downloads are off.
  json: { json: { schemaDownload: { enable: false }, validate: { enable: true } } },
  // The VS Code CSS and HTML servers read these sections with `workspace/configuration` and fail
  // on a null answer (they expect VS Code's defaults), so each gets an object.
  css: { css: CSS_SECTION, scss: CSS_SECTION, less: CSS_SECTION },
  // The HTML server reads `js/ts.implicitProjectConfig` unguarded when it checks an embedded script:
  // without it every check of a page fails and no finding shows.
  html: {
    html: { validate: { scripts: true, styles: true } },
    css: CSS_SECTION,
    javascript: { validate: { enable: true } },
    'js/ts': { implicitProjectConfig: { experimentalDecorators: false, strictNullChecks: true } },
  },
  // explainshell is a web service; empty keeps bash-language-server from calling it.
  shell: { bashIde: { explainshellEndpoint: '' } },
};

/**
 * `initializationOptions` the broker puts into the one `initialize` a server receives. The JSON
 * server handles the schemes listed in `handledSchemaProtocols` itself and asks the client
 * (`vscode/content`, answered by the broker with an error) for any other: listing only `file`
 * means an http(s) `$schema` is never downloaded.
 */
export const SERVER_INITIALIZATION_OPTIONS: Readonly<Partial<Record<LanguageId, Record<string, unknown>>>> = {
  json: { handledSchemaProtocols: ['file'], provideFormatter: true },
  css: { provideFormatter: true },
  html: { provideFormatter: true },
};

/** `over` merged onto `base` recursively for objects; any other value of `over` replaces. */
export function mergeJson(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isRecord(current) && isRecord(value) ? mergeJson(current, value) : value;
  }
  return out;
}

/**
 * typescript-language-server computes inlay hints only when its `inlayHints` preferences ask for
 * some (all are off by default) and reads them from `workspace/didChangeConfiguration`, per
 * `typescript` / `javascript` section. Turning the editor's inlay hints switch on without these
 * would register a provider that always answers nothing.
 */
const TYPESCRIPT_INLAY_HINTS = {
  includeInlayParameterNameHints: 'all',
  includeInlayParameterNameHintsWhenArgumentMatchesName: false,
  includeInlayFunctionParameterTypeHints: true,
  includeInlayVariableTypeHints: true,
  includeInlayVariableTypeHintsWhenTypeMatchesName: false,
  includeInlayPropertyDeclarationTypeHints: true,
  includeInlayFunctionLikeReturnTypeHints: true,
  includeInlayEnumMemberValueHints: true,
};

/** Server settings that follow the editor's per-language switches (lsp_editor_features). */
export function editorFeatureConfig(language: LanguageId, features: EditorFeatureSettings | undefined): Record<string, unknown> | undefined {
  if (language === 'typescript' && features?.inlay_hints === true) {
    return { typescript: { inlayHints: TYPESCRIPT_INLAY_HINTS }, javascript: { inlayHints: TYPESCRIPT_INLAY_HINTS } };
  }
  return undefined;
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
  const layers = [SERVER_DEFAULT_CONFIGS[language], editorFeatureConfig(language, features), userConfig].filter(
    (l): l is Record<string, unknown> => l !== undefined,
  );
  if (layers.length === 0) return undefined;
  if (layers.length === 1) return layers[0];
  return layers.reduce((base, over) => mergeJson(base, over));
}

/** The `initialize` params with Kandev's options for this language merged under the client's own. */
export function withInitializationOptions(language: LanguageId, params: unknown): unknown {
  const options = SERVER_INITIALIZATION_OPTIONS[language];
  if (!options || !isRecord(params)) return params;
  const client = isRecord(params.initializationOptions) ? params.initializationOptions : {};
  return { ...params, initializationOptions: mergeJson(options, client) };
}
