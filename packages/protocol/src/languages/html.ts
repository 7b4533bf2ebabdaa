import { defineLanguage, NODE_PREREQUISITE, NONE } from './descriptor.js';
import { CSS_SECTION, vscodeLanguageServer } from './vscodeLangservers.js';

export const html = defineLanguage({
  id: 'html',
  files: { extensions: ['.html', '.htm', '.xhtml'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'html' },
  monaco: { languageIds: ['html'], modelLanguageOfDocument: {}, builtinLanguageService: false },
  ...vscodeLanguageServer('vscode-html-language-server'),
  offers: {
    kind: 'measured',
    features: [
      'completion',
      'hover',
      'signatureHelp',
      'definition',
      'references',
      'documentHighlight',
      'documentSymbol',
      'documentLink',
      'color',
      'formatting',
      'rangeFormatting',
      'rename',
      'foldingRange',
      'selectionRange',
      'linkedEditingRange',
      'diagnostic',
    ],
  },
  serverSettings: {
    initializationOptions: { provideFormatter: true },
    // Read with `workspace/configuration`; a null answer fails (the server expects VS Code's defaults).
    // The HTML server reads `js/ts.implicitProjectConfig` unguarded when it checks an embedded script:
    // without it every check of a page fails and no finding shows.
    settings: {
      html: { validate: { scripts: true, styles: true } },
      css: CSS_SECTION,
      javascript: { validate: { enable: true } },
      'js/ts': { implicitProjectConfig: { experimentalDecorators: false, strictNullChecks: true } },
    },
    inlayHintSettings: NONE,
  },
  networkOff: { kind: 'no_setting', because: 'the HTML server follows no link and loads no remote script or style' },
  autoStartByDefault: false,
  catalog: { name: 'HTML', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.html', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'style', extensionTones: {} },
});
