import { ALL_PLATFORMS, defineLanguage, NO_SERVER_SETTINGS, NODE_PREREQUISITE, PATH_GUARD_ONLY } from './descriptor.js';

export const svelte = defineLanguage({
  id: 'svelte',
  files: { extensions: ['.svelte'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'svelte' },
  // Monaco has no Svelte grammar: the collection's one colours the markup, with its script and style blocks.
  monaco: {
    languageIds: ['svelte'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { svelte: { kind: 'textmate', grammar: 'svelte', embedded: ['javascript', 'typescript', 'css'] } },
  },
  // Asks for its `svelte`, `typescript`, `javascript`, `css` ... sections.
  server: { binary: 'svelteserver', args: ['--stdio'], configuration: 'pull' },
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
      'codeLens',
      'color',
      'formatting',
      'rename',
      'foldingRange',
      'selectionRange',
      'linkedEditingRange',
      'callHierarchy',
      'semanticTokens',
      'inlayHint',
      'diagnostic',
      'executeCommand',
    ],
  },
  // 0.18: node >= 18. It checks script blocks with the TypeScript it bundles.
  install: { kind: 'npm', packages: ['svelte-language-server@0.18'], bin: 'svelteserver', dir: 'svelte', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: 'svelte-language-server compiles and type-checks with the packages it bundles and fetches nothing' },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.svelte',
    // The server's own switch: when not trusted it loads no svelte.config / vite.config (which it
    // would import, so run) and takes svelte, its preprocessors and prettier from its own folder
    // instead of the workspace's node_modules.
    initialize: { kind: 'force_options', options: { isTrusted: false } },
    configuration: { kind: 'unchanged', because: 'its sections switch features and name no program or module' },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'Svelte', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.svelte', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'rs', extensionTones: {}, fileNames: {} },
});
