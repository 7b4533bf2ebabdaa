import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE } from './descriptor.js';

export const php = defineLanguage({
  id: 'php',
  files: { extensions: ['.php', '.phtml'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'php' },
  monaco: { languageIds: ['php'], modelLanguageOfDocument: {}, builtinLanguageService: false, tokenizers: { php: { kind: 'monarch', module: 'php' } } },
  // Asks for its `intelephense` section (and `files`, `html`, ...) with workspace/configuration.
  server: { binary: 'intelephense', args: ['--stdio'], configuration: 'pull' },
  // 1.18.5 declares no engine; it runs on Node 20. Its free features (diagnostics, hover,
  // completion, definition) need no licence key.
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
      'workspaceSymbol',
      'formatting',
      'rangeFormatting',
    ],
  },
  install: { kind: 'npm', packages: ['intelephense@1'], bin: 'intelephense', dir: 'intelephense', platforms: ALL_PLATFORMS },
  serverSettings: { initializationOptions: NONE, settings: { intelephense: { diagnostics: { enable: true } } }, inlayHintSettings: NONE },
  networkOff: {
    kind: 'settings',
    initializationOptions: NONE,
    // Off by default in 1.18; said explicitly so an upgrade that turns it on does not.
    settings: { intelephense: { telemetry: { enabled: false } } },
    because: 'intelephense can send usage telemetry; licence activation happens only for a key the person configures',
  },
  untrusted: {
    kind: 'nothing_runs',
    because: 'intelephense parses the PHP files and its bundled stubs itself and runs no php, composer or other program of the workspace',
  },
  autoStartByDefault: false,
  catalog: { name: 'PHP', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.php', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'kt', extensionTones: {}, fileNames: {} },
});
