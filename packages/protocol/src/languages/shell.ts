import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE, NO_SERVER_SETTINGS } from './descriptor.js';

export const shell = defineLanguage({
  id: 'shell',
  files: {
    extensions: ['.sh', '.bash', '.ksh'],
    fileNames: ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', 'PKGBUILD'],
    fileNamePrefixes: [],
    documentLanguageId: () => 'shellscript',
  },
  // Monaco names shell scripts `shell`; LSP `shellscript`.
  monaco: { languageIds: ['shell'], modelLanguageOfDocument: { shellscript: 'shell' }, builtinLanguageService: false },
  server: { binary: 'bash-language-server', args: ['start'], configuration: 'pull' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'definition',
      'references',
      'documentHighlight',
      'documentSymbol',
      'workspaceSymbol',
      'codeAction',
      'formatting',
      'rename',
    ],
  },
  install: { kind: 'npm', packages: ['bash-language-server@5'], bin: 'bash-language-server', dir: 'shell', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: {
    kind: 'settings',
    initializationOptions: NONE,
    settings: { bashIde: { explainshellEndpoint: '' } },
    because: 'explainshell is a web service; an empty endpoint keeps bash-language-server from calling it',
  },
  untrusted: { kind: 'nothing_runs', because: 'bash-language-server runs only shellcheck, looked up on the task PATH without its workspace entries' },
  autoStartByDefault: false,
  catalog: {
    name: 'Shell (Bash)',
    prerequisites: [NODE_PREREQUISITE, 'Optional: shellcheck on the task PATH for lint diagnostics (Debian/Ubuntu: apt-get install shellcheck)'],
    experimental: false,
  },
  copy: { name: 'languages.shell', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'terminal', tone: 'shell', extensionTones: {} },
});
