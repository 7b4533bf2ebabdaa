import { languageForPath } from '@kandev/protocol';

const JAVASCRIPT_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs'];

/**
 * The Monaco language of a file of a catalog language (Monaco's own extension lists miss some,
 * e.g. `.pyi`); undefined lets Monaco pick from the file name.
 */
export function monacoLanguageForPath(path: string): string | undefined {
  const language = languageForPath(path);
  if (!language) return undefined;
  if (language === 'typescript') {
    const lower = path.toLowerCase();
    return JAVASCRIPT_EXTENSIONS.some((ext) => lower.endsWith(ext)) ? 'javascript' : 'typescript';
  }
  return language;
}
