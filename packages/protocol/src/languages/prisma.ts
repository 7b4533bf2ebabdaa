import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NONE, PATH_GUARD_ONLY } from './descriptor.js';

/** Where Prisma's config loader (c12, name `prisma`) looks: each one is evaluated with jiti, i.e. run. */
const PRISMA_CONFIG_FILES = ['js', 'ts', 'mjs', 'cjs', 'mts', 'cts'].flatMap((ext) => [`prisma.config.${ext}`, `.config/prisma.${ext}`]);

export const prisma = defineLanguage({
  id: 'prisma',
  files: { extensions: ['.prisma'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'prisma' },
  // Monaco has no Prisma grammar: the TextMate one of the collection colours it.
  monaco: {
    languageIds: ['prisma'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { prisma: { kind: 'textmate', grammar: 'prisma', embedded: [] } },
  },
  server: { binary: 'prisma-language-server', args: ['--stdio'], configuration: 'pull' },
  // 31.x: node >= 20.
  offers: {
    kind: 'measured',
    features: ['completion', 'hover', 'definition', 'references', 'documentSymbol', 'codeAction', 'formatting', 'rename'],
  },
  install: { kind: 'npm', packages: ['@prisma/language-server@31'], bin: 'prisma-language-server', dir: 'prisma', platforms: ALL_PLATFORMS },
  // The server fails on a null `prisma` section (it reads `enableDiagnostics` from it).
  serverSettings: { initializationOptions: NONE, settings: { prisma: { enableDiagnostics: true } }, inlayHintSettings: NONE },
  networkOff: { kind: 'no_setting', because: 'prisma-language-server validates with the schema engine it bundles (WebAssembly) and fetches nothing' },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.prisma',
    // Without a Prisma config file there is nothing of the repository's to evaluate.
    initialize: {
      kind: 'refuse_when_build_files',
      buildFiles: PRISMA_CONFIG_FILES,
      refusal: "prisma-language-server evaluates the repository's prisma.config file, which runs its code: trust this workspace's tools to use it",
    },
    configuration: { kind: 'unchanged', because: 'the server reads whether to show diagnostics from it, which names no program' },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'Prisma', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.prisma', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'braces', tone: 'config', extensionTones: {}, fileNames: {} },
});
