import { ALL_PLATFORMS, defineLanguage, NODE_PREREQUISITE, NO_SERVER_SETTINGS } from './descriptor.js';

export const dockerfile = defineLanguage({
  id: 'dockerfile',
  files: {
    extensions: ['.dockerfile', '.containerfile'],
    fileNames: ['Dockerfile', 'Containerfile'],
    fileNamePrefixes: ['dockerfile.', 'containerfile.'],
    documentLanguageId: () => 'dockerfile',
  },
  monaco: {
    languageIds: ['dockerfile'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { dockerfile: { kind: 'monarch', module: 'dockerfile' } },
  },
  server: { binary: 'docker-langserver', args: ['--stdio'], configuration: 'pull' },
  install: { kind: 'npm', packages: ['dockerfile-language-server-nodejs@0.15'], bin: 'docker-langserver', dir: 'dockerfile', platforms: ALL_PLATFORMS },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: 'docker-langserver parses the Dockerfile alone; it pulls no image and reaches no registry' },
  untrusted: { kind: 'nothing_runs', because: 'docker-langserver parses the Dockerfile and runs no program (no docker build)' },
  autoStartByDefault: false,
  catalog: { name: 'Dockerfile', prerequisites: [NODE_PREREQUISITE], experimental: false },
  copy: { name: 'languages.dockerfile', longInitializeNotice: 'notice.longInitialize' },
  icon: { glyph: 'cog', tone: 'config', extensionTones: {}, fileNames: {} },
});
