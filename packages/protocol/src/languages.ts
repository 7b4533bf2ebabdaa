/** Languages of the catalog (DESIGN section 6). The ids are part of the wire contract. */
export const LANGUAGE_IDS = ['typescript', 'python', 'go', 'rust', 'kotlin', 'json', 'yaml', 'shell', 'dockerfile', 'css', 'html', 'cpp'] as const;
export type LanguageId = (typeof LANGUAGE_IDS)[number];

export interface LanguageFiles {
  id: LanguageId;
  /** File extensions, lower case, with the dot. */
  extensions: readonly string[];
  /**
   * Well-known file names (compared without case) that belong to the language whatever their
   * extension says: `Dockerfile`, `.bashrc`, `tsconfig.json` (JSON with comments)...
   */
  fileNames?: readonly string[];
  /** File-name prefixes, lower case (`Dockerfile.dev`, `Containerfile.prod`). */
  fileNamePrefixes?: readonly string[];
}

/** JSON files that are JSON with comments by convention (VS Code's list, shortened to common ones). */
const JSONC_FILE_NAMES = [
  'tsconfig.json',
  'jsconfig.json',
  '.eslintrc.json',
  '.babelrc',
  '.eslintrc',
  'devcontainer.json',
  '.devcontainer.json',
  'settings.json',
  'launch.json',
  'tasks.json',
  'extensions.json',
];

export const LANGUAGE_FILES: readonly LanguageFiles[] = [
  { id: 'typescript', extensions: ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'] },
  { id: 'python', extensions: ['.py', '.pyi'] },
  { id: 'go', extensions: ['.go'] },
  { id: 'rust', extensions: ['.rs'] },
  { id: 'kotlin', extensions: ['.kt', '.kts'] },
  { id: 'json', extensions: ['.json', '.jsonc', '.code-workspace'], fileNames: [...JSONC_FILE_NAMES, '.prettierrc', '.jshintrc'] },
  { id: 'yaml', extensions: ['.yml', '.yaml'], fileNames: ['.clang-format', '.clang-tidy', '.clangd'] },
  {
    id: 'shell',
    extensions: ['.sh', '.bash', '.ksh'],
    fileNames: ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', 'PKGBUILD'],
  },
  {
    id: 'dockerfile',
    extensions: ['.dockerfile', '.containerfile'],
    fileNames: ['Dockerfile', 'Containerfile'],
    fileNamePrefixes: ['dockerfile.', 'containerfile.'],
  },
  { id: 'css', extensions: ['.css', '.scss', '.less'] },
  { id: 'html', extensions: ['.html', '.htm', '.xhtml'] },
  { id: 'cpp', extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.ipp', '.inl'] },
];

export function isLanguageId(value: unknown): value is LanguageId {
  return typeof value === 'string' && (LANGUAGE_IDS as readonly string[]).includes(value);
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

function extensionOf(base: string): string {
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

/** The catalog language that serves a file, or undefined when no server covers it. */
export function languageForPath(path: string): LanguageId | undefined {
  const base = baseName(path);
  const lower = base.toLowerCase();
  // Names first: `tsconfig.json` and `Dockerfile.dev` say more than their extension.
  const byName = LANGUAGE_FILES.find(
    (l) => l.fileNames?.some((name) => name.toLowerCase() === lower) || l.fileNamePrefixes?.some((prefix) => lower.startsWith(prefix)),
  );
  if (byName) return byName.id;
  const ext = extensionOf(base);
  if (!ext) return undefined;
  return LANGUAGE_FILES.find((l) => l.extensions.includes(ext))?.id;
}

/**
 * The LSP `languageId` of a text document (it differs per file within one server: a .tsx file is
 * `typescriptreact` for typescript-language-server, which picks the script kind from it; a
 * tsconfig.json is `jsonc`, which lets the JSON server accept comments; a .scss file is `scss`).
 */
export function documentLanguageId(path: string): string | undefined {
  const base = baseName(path);
  const language = languageForPath(path);
  const ext = extensionOf(base);
  switch (language) {
    case undefined:
      return undefined;
    case 'typescript':
      if (ext === '.tsx') return 'typescriptreact';
      if (ext === '.jsx') return 'javascriptreact';
      return ext === '.js' || ext === '.mjs' || ext === '.cjs' ? 'javascript' : 'typescript';
    case 'json': {
      const jsonc = ext === '.jsonc' || ext === '.code-workspace' || JSONC_FILE_NAMES.includes(base.toLowerCase());
      return jsonc ? 'jsonc' : 'json';
    }
    case 'shell':
      return 'shellscript';
    case 'css':
      return ext === '.scss' ? 'scss' : ext === '.less' ? 'less' : 'css';
    case 'cpp':
      return ext === '.c' ? 'c' : 'cpp';
    default:
      return language;
  }
}
