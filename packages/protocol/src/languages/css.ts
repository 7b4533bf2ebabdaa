import { defineLanguage, NODE_PREREQUISITE, NONE } from './descriptor.js';
import { CSS_SECTION, vscodeLanguageServer } from './vscodeLangservers.js';

export const css = defineLanguage({
  id: 'css',
  files: {
    extensions: ['.css', '.scss', '.less'],
    fileNames: [],
    fileNamePrefixes: [],
    documentLanguageId: ({ extension }) => (extension === '.scss' ? 'scss' : extension === '.less' ? 'less' : 'css'),
  },
  monaco: { languageIds: ['css', 'scss', 'less'], modelLanguageOfDocument: {}, builtinLanguageService: false },
  ...vscodeLanguageServer('vscode-css-language-server'),
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'definition',
      'references',
      'documentHighlight',
      'documentSymbol',
      'codeAction',
      'documentLink',
      'color',
      'formatting',
      'rangeFormatting',
      'rename',
      'foldingRange',
      'selectionRange',
      'diagnostic',
    ],
  },
  serverSettings: {
    initializationOptions: { provideFormatter: true },
    settings: { css: CSS_SECTION, scss: CSS_SECTION, less: CSS_SECTION },
    inlayHintSettings: NONE,
  },
  networkOff: { kind: 'no_setting', because: 'the CSS server resolves imports from local files only' },
  autoStartByDefault: false,
  catalog: { name: 'CSS / SCSS / Less', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.css', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'style', extensionTones: {} },
});
