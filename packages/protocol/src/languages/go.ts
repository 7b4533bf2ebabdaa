import { ALL_PLATFORMS, defineLanguage, NO_SERVER_SETTINGS } from './descriptor.js';

export const go = defineLanguage({
  id: 'go',
  files: { extensions: ['.go'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'go' },
  monaco: { languageIds: ['go'], modelLanguageOfDocument: {}, builtinLanguageService: false, tokenizers: { go: { kind: 'monarch', module: 'go' } } },
  server: { binary: 'gopls', args: [], configuration: 'pull' },
  install: { kind: 'go', module: 'golang.org/x/tools/gopls@latest', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: "gopls fetches modules only through the go command, under the task's own GOPROXY and GOFLAGS" },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.go',
    initialize: { kind: 'unchanged', because: 'gopls runs only the go command, which the environment guard pins' },
    configuration: { kind: 'unchanged', because: 'no gopls setting names a program to run' },
    // A `go`/`toolchain` line in go.mod or go.work must never make go download and run another toolchain.
    environment: { set: { GOTOOLCHAIN: 'local' }, pinFromGuardedPath: {} },
    hostTools: 'none',
  },
  autoStartByDefault: true,
  catalog: { name: 'Go', prerequisites: ['Go toolchain on the task PATH'], experimental: false },
  copy: { name: 'languages.go', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'go', extensionTones: {}, fileNames: {} },
});
