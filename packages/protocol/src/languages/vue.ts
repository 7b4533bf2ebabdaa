import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE, PATH_GUARD_ONLY } from './descriptor.js';

export const vue = defineLanguage({
  id: 'vue',
  files: { extensions: ['.vue'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'vue' },
  // Monaco has no Vue grammar: the collection's one colours the component, with its script, style and template blocks.
  monaco: {
    languageIds: ['vue'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { vue: { kind: 'textmate', grammar: 'vue', embedded: ['javascript', 'typescript', 'css', 'html', 'html-derivative'] } },
  },
  // Asks for its `vue`, `typescript`, `javascript`, `html`, `css` ... sections.
  server: { binary: 'vue-language-server', args: ['--stdio'], configuration: 'pull' },
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
      'executeCommand',
      'fileOperations',
    ],
  },
  // 2.2.10: no engines field, runs on Node 20. 2.2.10 rather than a newer 2.x: 2.2.12 takes an emmet
  // service whose CSS parser is a git dependency, which a registry-only host cannot install. 3.x
  // answers TypeScript features only through a tsserver plugin of the client's (its "hybrid mode").
  // Its TypeScript is the one installed beside it (`launcherPaths`), never the workspace's.
  install: {
    kind: 'npm',
    packages: ['@vue/language-server@2.2.10', 'typescript@5'],
    bin: 'vue-language-server',
    dir: 'vue',
    platforms: ALL_PLATFORMS,
  },
  serverSettings: {
    // Without hybrid mode off, 2.x leaves the script's TypeScript to a tsserver plugin Kandev does not run.
    initializationOptions: { vue: { hybridMode: false } },
    settings: NONE,
    inlayHintSettings: NONE,
    // The server throws in `initialize` without the folder of its TypeScript library.
    launcherPaths: { 'typescript.tsdk': 'typescript_lib_next_to_launcher' },
  },
  networkOff: { kind: 'no_setting', because: 'vue-language-server checks with the TypeScript installed beside it and fetches nothing' },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.vue',
    // The `vueCompilerOptions.plugins` of a tsconfig/jsconfig are modules it requires, so runs; no
    // option turns that off. Without either file there is nothing of the repository's to load
    // (its TypeScript is pinned to the installed one by `launcherPaths`).
    initialize: {
      kind: 'refuse_when_build_files',
      buildFiles: ['tsconfig.json', 'jsconfig.json'],
      refusal:
        "vue-language-server loads the plugins the repository's tsconfig.json or jsconfig.json names (vueCompilerOptions), which runs its code: trust this workspace's tools to use it",
    },
    configuration: { kind: 'unchanged', because: 'its sections switch features and name no program or module' },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'Vue', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.vue', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'go', extensionTones: {}, fileNames: {} },
});
