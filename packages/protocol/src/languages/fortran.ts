import { defineLanguage, NO_SERVER_SETTINGS } from './descriptor.js';

export const fortran = defineLanguage({
  id: 'fortran',
  files: {
    extensions: ['.f90', '.f95', '.f03', '.f08', '.f18'],
    fileNames: [],
    fileNamePrefixes: [],
    documentLanguageId: () => 'fortran',
  },
  // Monaco has no Fortran grammar: the collection's free-form one colours it.
  monaco: {
    languageIds: ['fortran'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { fortran: { kind: 'textmate', grammar: 'fortran-free-form', embedded: [] } },
  },
  // fortls takes its options from a `.fortlsrc` in the workspace and from the command line; it
  // asks for no configuration section.
  server: { binary: 'fortls', args: [], configuration: 'push' },
  offers: { kind: 'measured', features: ['completion', 'hover', 'definition', 'implementation', 'references', 'documentSymbol', 'workspaceSymbol', 'rename'] },
  // fortls is a Python program: the host's package manager (or pip) installs it with its interpreter.
  install: {
    kind: 'never',
    manualCommand: 'apt-get install fortran-language-server',
    guidance:
      "Fortran uses fortls, which Kandev never installs: it comes from the task host's package manager " +
      '(Debian/Ubuntu: `apt-get install fortran-language-server`) or from pip (`pip install fortls`). ' +
      "Make sure `fortls` is on the task's PATH, then reopen the file.",
    closeKey: '4007Fortls',
    guidanceKey: 'fortlsManualSetup',
  },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: 'fortls reads the Fortran sources of the workspace only' },
  untrusted: {
    kind: 'nothing_runs',
    because:
      'fortls parses the sources and expands preprocessor lines with its own Python code; its workspace config (.fortlsrc) names folders and macros, never a program',
  },
  autoStartByDefault: false,
  catalog: {
    name: 'Fortran',
    prerequisites: [
      "Install fortls with the task host's package manager (Debian/Ubuntu: apt-get install fortran-language-server) or pip, and put it on the task PATH",
    ],
    experimental: false,
  },
  copy: { name: 'languages.fortran', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'py', extensionTones: {}, fileNames: {} },
});
