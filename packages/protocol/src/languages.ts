import { languageDescriptor, LANGUAGE_DESCRIPTORS, type LanguageId } from './languages/index.js';

/** Which language serves a file, and as which LSP document: read from the descriptors' file rules. */
export { isLanguageId, LANGUAGE_IDS, type LanguageId } from './languages/index.js';

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function extensionOf(base: string): string {
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

/** The catalog language that serves a file, or undefined when no server covers it. */
export function languageForPath(path: string): LanguageId | undefined {
  const lower = baseName(path).toLowerCase();
  // Names first: `tsconfig.json` and `Dockerfile.dev` say more than their extension.
  const byName = LANGUAGE_DESCRIPTORS.find(
    ({ files }) => files.fileNames.some((name) => name.toLowerCase() === lower) || files.fileNamePrefixes.some((prefix) => lower.startsWith(prefix)),
  );
  if (byName) return byName.id;
  const ext = extensionOf(lower);
  if (!ext) return undefined;
  return LANGUAGE_DESCRIPTORS.find(({ files }) => files.extensions.includes(ext))?.id;
}

/** The LSP `languageId` of a text document, as its language's descriptor names it. */
export function documentLanguageId(path: string): string | undefined {
  const language = languageForPath(path);
  if (language === undefined) return undefined;
  const lower = baseName(path).toLowerCase();
  return languageDescriptor(language).files.documentLanguageId({ extension: extensionOf(lower), baseName: lower });
}
