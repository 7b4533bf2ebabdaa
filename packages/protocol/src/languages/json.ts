import { defineLanguage, NODE_PREREQUISITE, NONE } from './descriptor.js';
import { vscodeLanguageServer } from './vscodeLangservers.js';

/** JSON files that are JSON with comments by convention (VS Code's list, shortened to common ones). */
const JSONC_FILE_NAMES = [
  'tsconfig.json',
  'jsconfig.json',
  '.eslintrc.json',
  '.babelrc',
  '.eslintrc',
  'devcontainer.json',
  '.devcontainer.json',
  'settings.json',
  'launch.json',
  'tasks.json',
  'extensions.json',
];

export const json = defineLanguage({
  id: 'json',
  files: {
    extensions: ['.json', '.jsonc', '.code-workspace'],
    fileNames: [...JSONC_FILE_NAMES, '.prettierrc', '.jshintrc'],
    fileNamePrefixes: [],
    // `jsonc` lets the JSON server accept comments.
    documentLanguageId: ({ extension, baseName }) =>
      extension === '.jsonc' || extension === '.code-workspace' || JSONC_FILE_NAMES.includes(baseName) ? 'jsonc' : 'json',
  },
  // Monaco has no `jsonc`: its `json` mode takes comments.
  monaco: { languageIds: ['json'], modelLanguageOfDocument: { jsonc: 'json' }, builtinLanguageService: false },
  ...vscodeLanguageServer('vscode-json-language-server'),
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'documentSymbol',
      'codeAction',
      'documentLink',
      'color',
      'formatting',
      'rangeFormatting',
      'foldingRange',
      'selectionRange',
      'diagnostic',
    ],
  },
  serverSettings: { initializationOptions: { provideFormatter: true }, settings: { json: { validate: { enable: true } } }, inlayHintSettings: NONE },
  networkOff: {
    kind: 'settings',
    // The server handles the schemes of `handledSchemaProtocols` itself and asks the client
    // (`vscode/content`, which the broker refuses) for any other: an http(s) `$schema` is never downloaded.
    initializationOptions: { handledSchemaProtocols: ['file'] },
    // What VS Code's client reads; kept so a person sees downloads are off.
    settings: { json: { schemaDownload: { enable: false } } },
    because: 'a schema download per opened file would leak which files a person opens, and a task host may have no route out',
  },
  autoStartByDefault: false,
  catalog: { name: 'JSON', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.json', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'braces', tone: 'json', extensionTones: {} },
});
