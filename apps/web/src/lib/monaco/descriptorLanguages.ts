import type { LanguageDescriptor, MonacoTokenizer } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';

/** A Monarch grammar module of Monaco's, as its basic-languages folder exports it. */
export interface MonarchModule {
  conf: Monaco.languages.LanguageConfiguration;
  language: Monaco.languages.IMonarchLanguage;
}

/** Where each tokenizer kind's data comes from (the build's lazy chunks; tests pass their own). */
export interface TokenizerSources {
  monarch: Readonly<Record<string, () => Promise<MonarchModule>>>;
  textmate(tokenizer: Extract<MonacoTokenizer, { kind: 'textmate' }>): Promise<Monaco.languages.TokensProvider>;
}

/** The part of Monaco's language registry this needs (a fake stands in for it in unit tests). */
export type RegisteringLanguages = Pick<typeof Monaco.languages, 'getLanguages' | 'register' | 'registerTokensProviderFactory' | 'setLanguageConfiguration'>;

/**
 * Monaco's defaults object of a language service it ships (`jsonDefaults`, `typescriptDefaults`),
 * by the Monaco language id whose models it serves: what this module needs of it.
 */
export interface LanguageServiceDefaults {
  setModeConfiguration(configuration: Record<string, boolean>): void;
  setDiagnosticsOptions?(options: Record<string, unknown>): void;
}

/** Every mode of Monaco's language services off but tokens (each service ignores keys it lacks). */
const TOKENS_ONLY: Record<string, boolean> = {
  tokens: true,
  documentFormattingEdits: false,
  documentRangeFormattingEdits: false,
  completionItems: false,
  hovers: false,
  documentSymbols: false,
  colors: false,
  foldingRanges: false,
  diagnostics: false,
  selectionRanges: false,
  definitions: false,
  references: false,
  documentHighlights: false,
  rename: false,
  signatureHelp: false,
  onTypeFormattingEdits: false,
  codeActions: false,
  inlayHints: false,
};

/**
 * Registers every Monaco language the descriptors name, with its tokenizer, before the first
 * model exists. Each tokenizer is created by Monaco's factory when a model of its language is first
 * tokenized, so its grammar (and, for TextMate, the regex engine) is fetched only then.
 *
 * A Monaco language service whose descriptor says its features are not built in (JSON: the task
 * host's server has the workspace's schemas) keeps its tokens only: a second, schema-less set of
 * diagnostics and completions would otherwise sit next to the server's.
 */
export function registerDescriptorLanguages(
  languages: RegisteringLanguages,
  descriptors: readonly LanguageDescriptor[],
  sources: TokenizerSources,
  services: Readonly<Record<string, LanguageServiceDefaults>>,
): void {
  const known = new Set(languages.getLanguages().map((l) => l.id));
  for (const descriptor of descriptors) {
    const { languageIds, tokenizers, builtinLanguageService } = descriptor.monaco;
    for (const id of languageIds) {
      const tokenizer = tokenizers[id];
      // The descriptor test holds one tokenizer per id; a gap is a build defect, said loudly.
      if (!tokenizer) throw new Error(`language ${descriptor.id}: no tokenizer for Monaco language ${id}`);
      if (!known.has(id)) {
        languages.register({ id, aliases: [descriptor.catalog.name] });
        known.add(id);
      }
      const service = services[id];
      if (service && !builtinLanguageService) {
        service.setModeConfiguration(TOKENS_ONLY);
        service.setDiagnosticsOptions?.({ validate: false, enableSchemaRequest: false });
      }
      registerTokenizer(languages, id, tokenizer, sources);
    }
  }
}

function registerTokenizer(languages: RegisteringLanguages, id: string, tokenizer: MonacoTokenizer, sources: TokenizerSources): void {
  switch (tokenizer.kind) {
    case 'language_service':
      // The service registered its tokenizer when it was imported.
      return;
    case 'monarch': {
      const load = sources.monarch[tokenizer.module];
      if (!load) throw new Error(`Monaco language ${id}: no Monarch grammar ${tokenizer.module} in this build`);
      languages.registerTokensProviderFactory(id, {
        create: async () => {
          const { conf, language } = await load();
          languages.setLanguageConfiguration(id, conf);
          return language;
        },
      });
      return;
    }
    case 'textmate':
      languages.registerTokensProviderFactory(id, { create: () => sources.textmate(tokenizer) });
      return;
  }
}
