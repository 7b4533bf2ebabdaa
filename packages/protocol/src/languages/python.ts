import { ALL_PLATFORMS, defineLanguage, NO_SERVER_SETTINGS, PATH_GUARD_ONLY } from './descriptor.js';

export const python = defineLanguage({
  id: 'python',
  files: { extensions: ['.py', '.pyi'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'python' },
  monaco: { languageIds: ['python'], modelLanguageOfDocument: {}, builtinLanguageService: false },
  server: { binary: 'pyright-langserver', args: ['--stdio'], configuration: 'pull' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'signatureHelp',
      'definition',
      'declaration',
      'typeDefinition',
      'references',
      'documentHighlight',
      'documentSymbol',
      'workspaceSymbol',
      'codeAction',
      'rename',
      'callHierarchy',
      'diagnostic',
    ],
  },
  install: { kind: 'npm', packages: ['pyright@1'], bin: 'pyright-langserver', dir: 'python', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: "pyright reads the workspace and the interpreter's own packages; it downloads nothing" },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.python',
    initialize: { kind: 'unchanged', because: 'pyright takes its interpreter from the configuration, which is guarded' },
    // A pythonPath pointing into the workspace would let the repository choose the interpreter pyright runs.
    configuration: { kind: 'pin_python_path' },
    environment: PATH_GUARD_ONLY,
    hostTools: 'python_on_guarded_path',
  },
  autoStartByDefault: true,
  catalog: { name: 'Python', prerequisites: ['Node.js and npm on the task PATH'], experimental: false },
  copy: { name: 'languages.python', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'py', extensionTones: {} },
});
