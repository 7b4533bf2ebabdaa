import { documentLanguageId, languageForPath, type LanguageId } from '@kandev/protocol';

/**
 * Monaco's language ids differ from LSP's here and there: Monaco names shell scripts `shell` (LSP:
 * `shellscript`), has no `jsonc` (its `json` mode takes comments), and a .tsx/.jsx model uses the
 * plain typescript/javascript mode.
 */
const MONACO_ID_OF_DOCUMENT: Readonly<Record<string, string>> = {
  typescriptreact: 'typescript',
  javascriptreact: 'javascript',
  jsonc: 'json',
  shellscript: 'shell',
};

/** Monaco language ids that a catalog language's models use (its providers register for these). */
const MONACO_IDS_OF_LANGUAGE: Readonly<Partial<Record<LanguageId, readonly string[]>>> = {
  typescript: ['typescript', 'javascript'],
  css: ['css', 'scss', 'less'],
  cpp: ['c', 'cpp'],
};

export function monacoLanguagesOf(language: LanguageId): string[] {
  return [...(MONACO_IDS_OF_LANGUAGE[language] ?? [language])];
}

/**
 * The Monaco language of a file of a catalog language, by extension or well-known name
 * (`Dockerfile.dev`, `.bashrc`, `.pyi`, which Monaco's own lists miss); undefined lets Monaco pick
 * from the file name.
 */
export function monacoLanguageForPath(path: string): string | undefined {
  if (!languageForPath(path)) return undefined;
  const documentId = documentLanguageId(path);
  if (!documentId) return undefined;
  return MONACO_ID_OF_DOCUMENT[documentId] ?? documentId;
}
