import { ALL_PLATFORMS, defineLanguage, NO_SERVER_SETTINGS, PATH_GUARD_ONLY } from './descriptor.js';

export const python = defineLanguage({
  id: 'python',
  files: { extensions: ['.py', '.pyi'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'python' },
  monaco: {
    languageIds: ['python'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { python: { kind: 'monarch', module: 'python' } },
  },
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
    // pyright runs the interpreter its python.pythonPath names (else python3, then python, on its
    // PATH) to learn sys.path: a setting pointing into the workspace would let the repository choose it.
    configuration: { kind: 'pin_setting_to_host_tool', setting: 'python.pythonPath', tool: 'python' },
    environment: PATH_GUARD_ONLY,
    hostTools: [{ kind: 'program_on_guarded_path', tool: 'python', candidates: ['python3', 'python'] }],
  },
  autoStartByDefault: true,
  catalog: { name: 'Python', prerequisites: ['Node.js and npm on the task PATH'], experimental: false },
  copy: { name: 'languages.python', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'py', extensionTones: {}, fileNames: {} },
});
