import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE } from './descriptor.js';

export const yaml = defineLanguage({
  id: 'yaml',
  files: { extensions: ['.yml', '.yaml'], fileNames: ['.clang-format', '.clang-tidy', '.clangd'], fileNamePrefixes: [], documentLanguageId: () => 'yaml' },
  monaco: { languageIds: ['yaml'], modelLanguageOfDocument: {}, builtinLanguageService: false },
  server: { binary: 'yaml-language-server', args: ['--stdio'], configuration: 'pull' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'definition',
      'documentSymbol',
      'codeAction',
      'codeLens',
      'documentLink',
      'onTypeFormatting',
      'rename',
      'foldingRange',
      'selectionRange',
      'executeCommand',
    ],
  },
  // Stays on 1: yaml-language-server 2 needs Node >= 22.13.
  install: { kind: 'npm', packages: ['yaml-language-server@1'], bin: 'yaml-language-server', dir: 'yaml', platforms: ALL_PLATFORMS },
  serverSettings: { initializationOptions: NONE, settings: { yaml: { validate: true, hover: true, completion: true } }, inlayHintSettings: NONE },
  networkOff: {
    kind: 'settings',
    initializationOptions: NONE,
    // Schemas still work from local files: a document's own `$schema` and the user's `yaml.schemas`.
    settings: { yaml: { schemaStore: { enable: false } } },
    because: 'yaml-language-server fetches the schemastore.org catalog at start unless told not to',
  },
  untrusted: { kind: 'nothing_runs', because: 'yaml-language-server parses files and local schemas and runs no program' },
  autoStartByDefault: false,
  catalog: { name: 'YAML', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.yaml', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'braces', tone: 'json', extensionTones: {} },
});
