import { ALL_PLATFORMS, CONFIG_ICON, defineLanguage, NO_SERVER_SETTINGS, NODE_PREREQUISITE } from './descriptor.js';

export const toml = defineLanguage({
  id: 'toml',
  files: { extensions: ['.toml'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'toml' },
  // Monaco has no TOML grammar: the TextMate one of the collection colours it.
  monaco: {
    languageIds: ['toml'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { toml: { kind: 'textmate', grammar: 'toml', embedded: [] } },
  },
  // `--offline`: without it tombi fetches the SchemaStore catalog and crates.io metadata as a file
  // opens. Offline it still validates with the schemas built into it (Cargo.toml, pyproject.toml,
  // tombi.toml) and the parser's findings (a duplicate key) need no schema. It never asks for a
  // configuration section: its settings come from the workspace's tombi.toml.
  server: {
    binary: 'tombi',
    args: ['lsp', '--offline'],
    configuration: 'push',
    pullDiagnosticsRegistration: {
      kind: 'static_only',
      because:
        'tombi (on tower-lsp, which handles messages concurrently) answers a pull that overtakes its own didOpen with an empty report and asks again only once, when its configuration has loaded; a busy machine lost the finding until the next edit. Without dynamic registration it publishes instead, after storing the document, and again for open documents once its configuration has loaded',
    },
  },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'definition',
      'declaration',
      'typeDefinition',
      'references',
      'documentSymbol',
      'codeAction',
      'documentLink',
      'formatting',
      'foldingRange',
      'semanticTokens',
      'inlayHint',
      'fileOperations',
    ],
  },
  // 1.2.1: engines node >= 14; the launcher starts the native binary of the platform package npm
  // installs with it (an optional dependency, no install script).
  install: { kind: 'npm', packages: ['@tombi-toml/tombi@1'], bin: 'tombi', dir: 'tombi', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: {
    kind: 'no_setting',
    because:
      'tombi runs as `tombi lsp --offline` (server.args): schema catalogs and URLs a tombi.toml names are not fetched, only the schemas built into it and local schema files are used',
  },
  untrusted: {
    kind: 'nothing_runs',
    because:
      "tombi is one native program: a repository's tombi.toml (or [tool.tombi] of pyproject.toml) names lint rules and JSON Schema files, which it reads as data and never runs; remote ones are not fetched offline. Its npm launcher runs `ldd --version` from the guarded PATH to pick the musl build, then the binary of its own install",
  },
  autoStartByDefault: false,
  catalog: { name: 'TOML (Tombi)', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.toml', longInitializeNotice: 'notice.longInitialize' },
  // Cargo.toml, pyproject.toml and the like are mostly configuration.
  icon: { ...CONFIG_ICON, extensionTones: {}, fileNames: {} },
});
