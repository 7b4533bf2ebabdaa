import { defineLanguage, NO_SERVER_SETTINGS } from './descriptor.js';

export const cpp = defineLanguage({
  id: 'cpp',
  files: {
    extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.ipp', '.inl'],
    fileNames: [],
    fileNamePrefixes: [],
    documentLanguageId: ({ extension }) => (extension === '.c' ? 'c' : 'cpp'),
  },
  monaco: { languageIds: ['c', 'cpp'], modelLanguageOfDocument: {}, builtinLanguageService: false },
  // No background index: it would write .cache/clangd into the repository the person is browsing.
  server: { binary: 'clangd', args: ['--background-index=false'], configuration: 'pull' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'signatureHelp',
      'definition',
      'declaration',
      'typeDefinition',
      'implementation',
      'references',
      'documentHighlight',
      'documentSymbol',
      'workspaceSymbol',
      'codeAction',
      'documentLink',
      'formatting',
      'rangeFormatting',
      'onTypeFormatting',
      'rename',
      'selectionRange',
      'callHierarchy',
      'typeHierarchy',
      'semanticTokens',
      'executeCommand',
    ],
  },
  // clangd comes from the host's package manager: it must match the host's libc and LLVM.
  install: {
    kind: 'never',
    manualCommand: 'apt-get install clangd',
    guidance:
      "C and C++ use clangd, which Kandev never installs: it comes from the task host's package manager " +
      '(Debian/Ubuntu: `apt-get install clangd`; Fedora: `dnf install clang-tools-extra`; macOS: `brew install llvm`). ' +
      "Make sure `clangd` is on the task's PATH and the repository has a compile_commands.json, then reopen the file.",
    closeKey: '4007Clangd',
    guidanceKey: 'clangdManualSetup',
  },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: 'clangd reads local headers and compile commands only' },
  untrusted: {
    kind: 'nothing_runs',
    because: 'clangd parses with its own front end and queries no compiler driver unless --query-driver allows one, which Kandev never passes',
  },
  autoStartByDefault: false,
  catalog: {
    name: 'C / C++',
    prerequisites: [
      "Install clangd with the task host's package manager (Debian/Ubuntu: apt-get install clangd; Fedora: dnf install clang-tools-extra; macOS: brew install llvm) and put it on the task PATH",
      'A compile_commands.json (or compile_flags.txt) at the repository root for accurate diagnostics',
    ],
    experimental: false,
  },
  copy: { name: 'languages.cpp', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'config', extensionTones: {} },
});
