import { ALL_PLATFORMS, defineLanguage, NO_SERVER_SETTINGS, NODE_PREREQUISITE, PATH_GUARD_ONLY } from './descriptor.js';

export const erb = defineLanguage({
  id: 'erb',
  // Rails views and partials (`show.html.erb`) and Herb's own extension.
  files: { extensions: ['.erb', '.herb'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'erb' },
  // Monaco has no ERB grammar: the collection's one colours the markup with its Ruby tags.
  monaco: {
    languageIds: ['erb'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { erb: { kind: 'textmate', grammar: 'erb', embedded: ['html', 'ruby'] } },
  },
  // Asks for its `languageServerHerb` section (linter, formatter).
  server: { binary: 'herb-language-server', args: ['--stdio'], configuration: 'pull' },
  offers: { kind: 'measured', features: ['hover', 'documentHighlight', 'codeAction', 'formatting', 'rangeFormatting', 'foldingRange'] },
  // 0.10: engines `*`; the parser is WebAssembly it ships (no Ruby needed).
  install: { kind: 'npm', packages: ['@herb-tools/language-server@0.10'], bin: 'herb-language-server', dir: 'herb', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: {
    kind: 'no_setting',
    because: 'herb-language-server parses with the WebAssembly parser it ships and its helper documentation is bundled: it fetches nothing',
  },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.erb',
    // `.herb.yml` can name rewriters, which the server imports at start from `.herb/rewriters`
    // (or the workspace's Tailwind for the class sorter): refused while untrusted when it exists.
    initialize: {
      kind: 'refuse_when_build_files',
      buildFiles: ['.herb.yml'],
      refusal: "herb-language-server loads the rewriters that the repository's .herb.yml names, which runs their code: trust this workspace's tools to use it",
    },
    // The linter imports the repository's own rules (`.herb/rules/*.mjs`): off while untrusted.
    // The parser's findings and the hovers stay.
    configuration: { kind: 'force_section', section: 'languageServerHerb', values: { linter: { enabled: false } } },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: { name: 'ERB (Herb)', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.erb', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'code', tone: 'rs', extensionTones: {}, fileNames: {} },
});
