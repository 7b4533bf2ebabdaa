import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE, PATH_GUARD_ONLY } from './descriptor.js';

export const astro = defineLanguage({
  id: 'astro',
  files: { extensions: ['.astro'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'astro' },
  // Monaco has no Astro grammar: the collection's one colours the component, its frontmatter script and style blocks.
  monaco: {
    languageIds: ['astro'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { astro: { kind: 'textmate', grammar: 'astro', embedded: ['javascript', 'typescript', 'css', 'json', 'tsx'] } },
  },
  // Asks for its `astro`, `typescript`, `html`, `css`, `prettier` ... sections.
  server: { binary: 'astro-ls', args: ['--stdio'], configuration: 'pull' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'signatureHelp',
      'definition',
      'typeDefinition',
      'implementation',
      'references',
      'documentHighlight',
      'documentSymbol',
      'workspaceSymbol',
      'codeAction',
      'documentLink',
      'color',
      'formatting',
      'rangeFormatting',
      'onTypeFormatting',
      'rename',
      'foldingRange',
      'selectionRange',
      'linkedEditingRange',
      'callHierarchy',
      'semanticTokens',
      'inlayHint',
      'fileOperations',
    ],
  },
  // 2.x: no engines field, runs on Node 20. Its TypeScript is the one installed beside it (`launcherPaths`).
  install: {
    kind: 'npm',
    packages: ['@astrojs/language-server@2', 'typescript@5'],
    bin: 'astro-ls',
    dir: 'astro',
    platforms: ALL_PLATFORMS,
  },
  serverSettings: {
    initializationOptions: NONE,
    settings: NONE,
    inlayHintSettings: NONE,
    // The server throws in `initialize` without the folder of its TypeScript library.
    launcherPaths: { 'typescript.tsdk': 'typescript_lib_next_to_launcher' },
  },
  networkOff: { kind: 'no_setting', because: 'astro-ls checks with the TypeScript installed beside it and fetches nothing' },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.astro',
    // It resolves prettier (and the configs and plugins prettier imports) and the @astrojs/vue and
    // @astrojs/svelte editor modules from the workspace's node_modules, from any folder up from a
    // file, and no option of its own turns that off: untrusted, it does not start.
    initialize: {
      kind: 'refuse',
      refusal:
        "astro-ls loads prettier, its configs and the framework integrations from the repository's node_modules, which runs its code: trust this workspace's tools to use it",
    },
    configuration: { kind: 'unchanged', because: 'it never starts while untrusted' },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'Astro', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.astro', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'rs', extensionTones: {}, fileNames: {} },
});
