import { defineLanguage, NO_SERVER_SETTINGS, PATH_GUARD_ONLY } from './descriptor.js';

export const kotlin = defineLanguage({
  id: 'kotlin',
  files: { extensions: ['.kt', '.kts'], fileNames: [], fileNamePrefixes: [], documentLanguageId: () => 'kotlin' },
  monaco: {
    languageIds: ['kotlin'],
    modelLanguageOfDocument: {},
    builtinLanguageService: false,
    tokenizers: { kotlin: { kind: 'monarch', module: 'kotlin' } },
  },
  server: { binary: 'kotlin-lsp', args: ['--stdio'], configuration: 'pull' },
  offers: {
    kind: 'not_measured',
    because: 'kotlin-lsp is installed by hand only, and the machine that measures the table has none; the fake server stands in for it in tests',
  },
  install: {
    kind: 'never',
    manualCommand: null,
    guidance:
      'Kotlin has no automatic installer. Install kotlin-lsp manually (JetBrains kotlin-lsp, which needs Java 17 or newer) ' +
      "on the task host, make sure `kotlin-lsp` is on the task's PATH, then reopen the file.",
    closeKey: '4007Kotlin',
    guidanceKey: 'kotlinManualSetup',
  },
  serverSettings: NO_SERVER_SETTINGS,
  networkOff: { kind: 'no_setting', because: "kotlin-lsp fetches dependencies only while importing the Gradle or Maven build, under the build's own settings" },
  untrusted: {
    kind: 'guarded',
    dialogKey: 'languages.kotlin',
    // Without build files there is nothing to import, so nothing of the repository's to run.
    initialize: {
      kind: 'refuse_when_build_files',
      // Gradle settings/build scripts and wrapper, Maven POMs: importing any of them runs repository code.
      buildFiles: ['settings.gradle', 'settings.gradle.kts', 'build.gradle', 'build.gradle.kts', 'gradlew', 'gradlew.bat', 'pom.xml'],
      refusal: "kotlin-lsp imports the Gradle or Maven build, which runs the repository's build scripts: trust this workspace's tools to use it",
    },
    configuration: { kind: 'unchanged', because: 'kotlin-lsp starts only when there is no build to import' },
    environment: PATH_GUARD_ONLY,
    hostTools: [],
  },
  autoStartByDefault: false,
  catalog: {
    name: 'Kotlin',
    prerequisites: ['Install kotlin-lsp manually (JetBrains Kotlin LSP release) and put it on the task PATH', 'A JDK on the task PATH'],
    experimental: true,
  },
  // Its initialize may import a Gradle project for minutes.
  copy: { name: 'languages.kotlin', longInitializeNotice: 'notice.longInitializeKotlin' },
  icon: { glyph: 'code', tone: 'kt', extensionTones: {}, fileNames: {} },
});
