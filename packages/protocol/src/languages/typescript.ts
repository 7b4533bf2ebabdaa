import { ALL_PLATFORMS, defineLanguage, NONE, PATH_GUARD_ONLY } from './descriptor.js';

/**
 * typescript-language-server computes inlay hints only when its `inlayHints` preferences ask for
 * some (all are off by default) and reads them from `workspace/didChangeConfiguration`, per
 * `typescript` / `javascript` section. Turning the editor's inlay hints switch on without these
 * would register a provider that always answers nothing.
 */
const INLAY_HINTS = {
  includeInlayParameterNameHints: 'all',
  includeInlayParameterNameHintsWhenArgumentMatchesName: false,
  includeInlayFunctionParameterTypeHints: true,
  includeInlayVariableTypeHints: true,
  includeInlayVariableTypeHintsWhenTypeMatchesName: false,
  includeInlayPropertyDeclarationTypeHints: true,
  includeInlayFunctionLikeReturnTypeHints: true,
  includeInlayEnumMemberValueHints: true,
};

/** typescript-language-server returns reference and implementation lenses only when its preferences enable them. */
const CODE_LENSES = { referencesCodeLens: { enabled: true, showOnAllFunctions: false }, implementationsCodeLens: { enabled: true } };

const JAVASCRIPT_EXTENSIONS = ['.js', '.mjs', '.cjs'];

export const typescript = defineLanguage({
  id: 'typescript',
  files: {
    extensions: ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'],
    fileNames: [],
    fileNamePrefixes: [],
    // typescript-language-server picks the script kind from the languageId.
    documentLanguageId: ({ extension }) =>
      extension === '.tsx'
        ? 'typescriptreact'
        : extension === '.jsx'
          ? 'javascriptreact'
          : JAVASCRIPT_EXTENSIONS.includes(extension)
            ? 'javascript'
            : 'typescript',
  },
  monaco: {
    languageIds: ['typescript', 'javascript'],
    // A .tsx/.jsx model uses the plain typescript/javascript mode.
    modelLanguageOfDocument: { typescriptreact: 'typescript', javascriptreact: 'javascript' },
    builtinLanguageService: true,
    tokenizers: { typescript: { kind: 'monarch', module: 'typescript' }, javascript: { kind: 'monarch', module: 'javascript' } },
  },
  // Asks only for formatting options; takes its preferences (inlay hints) from didChangeConfiguration.
  server: { binary: 'typescript-language-server', args: ['--stdio'], configuration: 'push' },
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'signatureHelp',
      'definition',
      'typeDefinition',
      'implementation',
      'references',
      'documentHighlight',
      'documentSymbol',
      'workspaceSymbol',
      'codeAction',
      'codeLens',
      'formatting',
      'rangeFormatting',
      'rename',
      'foldingRange',
      'selectionRange',
      'linkedEditingRange',
      'callHierarchy',
      'semanticTokens',
      'inlayHint',
      'executeCommand',
      'fileOperations',
    ],
  },
  install: {
    kind: 'npm',
    packages: ['typescript-language-server@5', 'typescript@6'],
    bin: 'typescript-language-server',
    dir: 'typescript',
    platforms: ALL_PLATFORMS,
  },
  serverSettings: {
    initializationOptions: NONE,
    settings: NONE,
    inlayHintSettings: { typescript: { inlayHints: INLAY_HINTS }, javascript: { inlayHints: INLAY_HINTS } },
    // Off by default as in VS Code; its lenses are counted only when these preferences ask for them.
    codeLens: { byDefault: false, settings: { typescript: CODE_LENSES, javascript: CODE_LENSES } },
  },
  networkOff: {
    kind: 'no_setting',
    because: "tsserver's type acquisition runs the npm found on the (guarded) task PATH, under the task's own npm configuration",
  },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.typescript',
    // Without a valid tsserver.path, typescript-language-server prefers the workspace's
    // node_modules/typescript, which it forks. Plugins and the typings installer's npm name code to
    // load or run; a fallback path would be tried after an invalid pin.
    initialize: {
      kind: 'pin_option_to_host_tool',
      option: 'tsserver.path',
      tool: 'tsserver',
      drop: ['tsserver.fallbackPath', 'plugins', 'npmLocation'],
      refusal:
        'workspace tools are not trusted and this task host has no TypeScript next to typescript-language-server; ' +
        "trust this workspace's tools or install typescript-language-server with its TypeScript",
    },
    configuration: { kind: 'unchanged', because: 'the server reads formatting options and preferences from it, none of which names a program' },
    environment: PATH_GUARD_ONLY,
    // The TypeScript typescript-language-server itself depends on (what it calls its bundled one).
    hostTools: [{ kind: 'package_file_next_to_launcher', tool: 'tsserver', package: 'typescript', file: 'lib/tsserver.js' }],
  },
  autoStartByDefault: true,
  catalog: { name: 'TypeScript / JavaScript', prerequisites: ['Node.js and npm on the task PATH'], experimental: false },
  copy: { name: 'languages.typescript', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'ts', extensionTones: { js: 'js', jsx: 'js', mjs: 'js', cjs: 'js' }, fileNames: {} },
});
