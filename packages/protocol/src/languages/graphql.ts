import { ALL_PLATFORMS, defineLanguage, NO_SERVER_SETTINGS, NODE_PREREQUISITE, PATH_GUARD_ONLY } from './descriptor.js';

/**
 * Where graphql-config (which the server loads its project from) looks, in the workspace root.
 * Every one of them can run the repository's code: a JavaScript or TypeScript config is evaluated
 * (jiti), and any config, a YAML one or the `graphql` key of package.json too, may name a code file
 * as its schema or documents, which the server's code-file loader imports when it finds no
 * GraphQL tag in it.
 */
const GRAPHQL_CONFIG_FILES = [
  ...['ts', 'cts', 'mts', 'js', 'cjs', 'mjs', 'json', 'yaml', 'yml', 'toml'].map((ext) => `graphql.config.${ext}`),
  '.graphqlrc',
  ...['ts', 'cts', 'mts', 'js', 'cjs', 'mjs', 'json', 'yml', 'yaml', 'toml'].map((ext) => `.graphqlrc.${ext}`),
  '.graphqlconfig',
  ...['json', 'yaml', 'yml'].map((ext) => `.graphqlconfig.${ext}`),
  'package.json',
];

export const graphql = defineLanguage({
  id: 'graphql',
  files: { extensions: ['.graphql', '.gql', '.graphqls'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'graphql' },
  monaco: {
    languageIds: ['graphql'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { graphql: { kind: 'monarch', module: 'graphql' } },
  },
  // Asks for its `graphql-config` and `vscode-graphql` sections (null is fine: the defaults).
  server: { binary: 'graphql-lsp', args: ['server', '-m', 'stream'], configuration: 'pull' },
  offers: { kind: 'measured', features: ['completion', 'hover', 'definition', 'documentSymbol', 'workspaceSymbol'] },
  // graphql-language-service-cli 3.5 has no engines field (graphql-config's fetch helpers ask for
  // Node 22 but only load for a schema named by URL; the server runs on Node 20); graphql is its peer.
  install: {
    kind: 'npm',
    packages: ['graphql-language-service-cli@3', 'graphql@16'],
    bin: 'graphql-lsp',
    dir: 'graphql',
    platforms: ALL_PLATFORMS,
  },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: {
    kind: 'no_setting',
    because:
      "the server fetches only a schema that the project's GraphQL config names by URL, which the project asks for; untrusted, it never starts with a config",
  },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.graphql',
    // Without a config the server knows no schema and loads nothing of the repository's; with one
    // it may run the repository's code, and no setting stops its loaders from importing.
    initialize: {
      kind: 'refuse_when_build_files',
      buildFiles: GRAPHQL_CONFIG_FILES,
      refusal:
        "graphql-language-service loads the repository's GraphQL config (graphql.config, .graphqlrc or package.json), which can run its code: trust this workspace's tools to use it",
    },
    configuration: { kind: 'unchanged', because: "its sections come from the person's own settings and name no program of the repository" },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'GraphQL', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.graphql', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'braces', tone: 'rs', extensionTones: {}, fileNames: {} },
});
