import { defineLanguage, NO_SERVER_SETTINGS } from './descriptor.js';

/** Settings that keep rust-analyzer from building or running anything of the repository's. */
export const RUST_ANALYZER_UNTRUSTED = {
  cargo: { buildScripts: { enable: false, overrideCommand: null } },
  procMacro: { enable: false },
  checkOnSave: false,
  check: { overrideCommand: null },
} as const;

export const rust = defineLanguage({
  id: 'rust',
  files: { extensions: ['.rs'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'rust' },
  monaco: { languageIds: ['rust'], modelLanguageOfDocument: {}, builtinLanguageService: false, tokenizers: { rust: { kind: 'monarch', module: 'rust' } } },
  server: { binary: 'rust-analyzer', args: [], configuration: 'pull' },
  offers: {
    kind: 'not_measured',
    because:
      'the machine that measures the table has no rust-analyzer (its PATH has a rustup proxy without a toolchain, and release downloads are out of its reach); the fake server stands in for it in tests',
  },
  install: {
    kind: 'release',
    dir: 'rust',
    baseUrl: 'https://github.com/rust-lang/rust-analyzer/releases/latest/download',
    baseUrlEnv: 'KANDEV_RUST_ANALYZER_BASE_URL',
    manualCommand: 'rustup component add rust-analyzer',
    platforms: ['linux', 'darwin'],
    otherPlatformGuidance:
      'rust-analyzer is not installed automatically on Windows task hosts. Install it with ' +
      "`rustup component add rust-analyzer` (or download rust-analyzer.exe), make sure it is on the task's PATH, then reopen the file.",
  },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: "rust-analyzer reaches crates only through cargo, under the task's own cargo configuration" },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.rust',
    initialize: { kind: 'force_options', options: RUST_ANALYZER_UNTRUSTED },
    configuration: { kind: 'force_section', section: 'rust-analyzer', values: RUST_ANALYZER_UNTRUSTED },
    // cargo metadata runs `rustc` through `.cargo/config.toml` wrappers; variables win over config
    // files. RUSTUP_AUTO_INSTALL=0 keeps a rust-toolchain.toml from downloading a toolchain.
    environment: { set: { RUSTC_WRAPPER: '', RUSTC_WORKSPACE_WRAPPER: '', RUSTUP_AUTO_INSTALL: '0' }, pinFromGuardedPath: { RUSTC: 'rustc' } },
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'Rust', prerequisites: ['Linux or macOS task host for automatic install; on Windows install rust-analyzer manually'], experimental: false },
  copy: { name: 'languages.rust', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'rs', extensionTones: {}, fileNames: {} },
});
