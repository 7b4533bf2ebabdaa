/** Languages of the catalog (DESIGN section 6). The ids are part of the wire contract. */
export const LANGUAGE_IDS = ['typescript', 'python', 'go', 'rust', 'kotlin'] as const;
export type LanguageId = (typeof LANGUAGE_IDS)[number];

export interface LanguageFiles {
  id: LanguageId;
  /** File extensions, lower case, with the dot. */
  extensions: readonly string[];
}

export const LANGUAGE_FILES: readonly LanguageFiles[] = [
  { id: 'typescript', extensions: ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'] },
  { id: 'python', extensions: ['.py', '.pyi'] },
  { id: 'go', extensions: ['.go'] },
  { id: 'rust', extensions: ['.rs'] },
  { id: 'kotlin', extensions: ['.kt', '.kts'] },
];

export function isLanguageId(value: unknown): value is LanguageId {
  return typeof value === 'string' && (LANGUAGE_IDS as readonly string[]).includes(value);
}

function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

/** The catalog language that serves a file, or undefined when no server covers it. */
export function languageForPath(path: string): LanguageId | undefined {
  const ext = extensionOf(path);
  if (!ext) return undefined;
  return LANGUAGE_FILES.find((l) => l.extensions.includes(ext))?.id;
}

/**
 * The LSP `languageId` of a text document (it differs per file within one server: a .tsx file is
 * `typescriptreact` for typescript-language-server, which picks the script kind from it).
 */
export function documentLanguageId(path: string): string | undefined {
  const ext = extensionOf(path);
  switch (ext) {
    case '.ts': case '.mts': case '.cts': return 'typescript';
    case '.tsx': return 'typescriptreact';
    case '.js': case '.mjs': case '.cjs': return 'javascript';
    case '.jsx': return 'javascriptreact';
    case '.py': case '.pyi': return 'python';
    case '.go': return 'go';
    case '.rs': return 'rust';
    case '.kt': case '.kts': return 'kotlin';
    default: return undefined;
  }
}
