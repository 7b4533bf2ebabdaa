/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** True only in the test build (`vite build --mode test` -> apps/web/dist-test): window test hooks. */
  readonly KANDEV_TEST_HOOKS?: boolean;
}

/** The grammars the language descriptors name (apps/web/languageGrammars.ts), each loaded lazily. */
declare module 'virtual:kandev-grammars' {
  import type * as Monaco from 'monaco-editor';
  export const monarchLoaders: Readonly<
    Record<string, () => Promise<{ conf: Monaco.languages.LanguageConfiguration; language: Monaco.languages.IMonarchLanguage }>>
  >;
  export const textmateLoaders: Readonly<Record<string, () => Promise<unknown>>>;
}

/** Monaco's built-in themes (the package ships no types for the module); monacoThemes.test.ts reads their token rules. */
declare module 'monaco-editor/esm/vs/editor/standalone/common/themes.js' {
  interface BuiltinTheme {
    readonly rules: ReadonlyArray<{ readonly token: string; readonly foreground?: string }>;
    readonly colors: Readonly<Record<string, string>>;
  }
  export const vs: BuiltinTheme;
  export const vs_dark: BuiltinTheme;
}
