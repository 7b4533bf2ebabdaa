import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE } from './descriptor.js';

export const vim = defineLanguage({
  id: 'vim',
  files: { extensions: ['.vim'], fileNames: ['.vimrc', '_vimrc', '.gvimrc', '.exrc'], fileNamePrefixes: [], documentLanguageId: () => 'vim' },
  // Monaco has no Vim script grammar: the TextMate one of the collection colours it.
  monaco: {
    languageIds: ['vim'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { vim: { kind: 'textmate', grammar: 'viml', embedded: [] } },
  },
  // Takes everything from initializationOptions and never asks for a section.
  server: { binary: 'vim-language-server', args: ['--stdio'], configuration: 'push' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'signatureHelp',
      'definition',
      'references',
      'documentHighlight',
      'documentSymbol',
      'rename',
      'foldingRange',
      'selectionRange',
    ],
  },
  // 2.3.1 declares no engine; it runs on Node 20.
  install: { kind: 'npm', packages: ['vim-language-server@2'], bin: 'vim-language-server', dir: 'vim', platforms: ALL_PLATFORMS },
  // Without `diagnostic.enable` it reports no parse errors; without `vimruntime` it indexes no
  // runtime files (there is no Vim to ask where they are, and none is needed for the workspace's own).
  serverSettings: {
    initializationOptions: {
      isNeovim: false,
      diagnostic: { enable: true },
      indexes: { runtimepath: false, gap: 100, count: 3 },
      suggest: { fromVimruntime: true, fromRuntimepath: false },
    },
    settings: NONE,
    inlayHintSettings: NONE,
  },
  networkOff: { kind: 'no_setting', because: 'vim-language-server reads the Vim files of the workspace and its bundled documentation only' },
  untrusted: {
    kind: 'nothing_runs',
    because:
      'vim-language-server parses Vim script with its own parser (its index worker is its own script) and never starts vim or a program the workspace names',
  },
  autoStartByDefault: false,
  catalog: { name: 'Vim script', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.vim', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'terminal', tone: 'go', extensionTones: {}, fileNames: {} },
});
