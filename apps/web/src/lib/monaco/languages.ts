import { documentLanguageId, languageDescriptor, languageForPath, type LanguageId } from '@kandev/protocol';

/** Monaco language ids that a catalog language's models use (its providers register for these). */
export function monacoLanguagesOf(language: LanguageId): string[] {
  return [...languageDescriptor(language).monaco.languageIds];
}

/**
 * The Monaco language of a file of a catalog language, by extension or well-known name
 * (`Dockerfile.dev`, `.bashrc`, `.pyi`, which Monaco's own lists miss); undefined lets Monaco pick
 * from the file name.
 */
export function monacoLanguageForPath(path: string): string | undefined {
  const language = languageForPath(path);
  if (!language) return undefined;
  const documentId = documentLanguageId(path);
  if (!documentId) return undefined;
  // Monaco spells some differently: `shell` (LSP `shellscript`), `json` for `jsonc`, plain typescript for .tsx.
  return languageDescriptor(language).monaco.modelLanguageOfDocument[documentId] ?? documentId;
}
