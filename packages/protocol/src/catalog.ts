import type { LanguageCatalogEntry } from './api.js';
import { LANGUAGE_FILES, type LanguageId } from './languages.js';

/**
 * The language catalog as people see it (DESIGN section 6): what serves each language, how it is
 * installed and where it ends up. Data only, shared so the backend can show the Editors settings
 * cards without a task host, and agentctl installs exactly what the card says. Whether a given
 * host can install is agentctl's decision alone (it knows its OS).
 */

/** The managed root below a task's HOME: `$HOME/.kandev/lsp-servers`. */
export const MANAGED_ROOT_SEGMENTS = ['.kandev', 'lsp-servers'] as const;
/** Where npm puts a package's launchers inside its --prefix. */
export const NPM_BIN_SEGMENTS = ['node_modules', '.bin'] as const;

export type NpmLanguage = 'typescript' | 'python';

export interface NpmServer {
  /** Pinned to majors that run on Node 20: typescript-language-server 5 and TypeScript 6 need >= 20. */
  packages: readonly string[];
  bin: string;
}

export const NPM_SERVERS: Readonly<Record<NpmLanguage, NpmServer>> = {
  typescript: { packages: ['typescript-language-server@5', 'typescript@6'], bin: 'typescript-language-server' },
  python: { packages: ['pyright@1'], bin: 'pyright-langserver' },
};

export const GOPLS_PACKAGE = 'golang.org/x/tools/gopls@latest';
export const GO_INSTALL_COMMAND = `go install ${GOPLS_PACKAGE}`;

export function isNpmLanguage(language: LanguageId): language is NpmLanguage {
  return language === 'typescript' || language === 'python';
}

/** A folder under the managed root as people write it (`~/.kandev/lsp-servers/...`). */
export function displayManagedDir(...segments: string[]): string {
  return ['~', ...MANAGED_ROOT_SEGMENTS, ...segments].join('/');
}

export function displayNpmBinDir(language: NpmLanguage): string {
  return displayManagedDir(language, ...NPM_BIN_SEGMENTS);
}

/** The by-hand equivalent of the npm installer: the same pinned packages into the same folder. */
export function npmInstallCommand(language: NpmLanguage): string {
  return `npm install --prefix ${displayManagedDir(language)} ${NPM_SERVERS[language].packages.join(' ')}`;
}

function extensionsOf(id: LanguageId): string[] {
  return [...(LANGUAGE_FILES.find((l) => l.id === id)?.extensions ?? [])];
}

export const LANGUAGE_CATALOG: readonly LanguageCatalogEntry[] = [
  {
    id: 'typescript',
    name: 'TypeScript / JavaScript',
    extensions: extensionsOf('typescript'),
    binary: NPM_SERVERS.typescript.bin,
    args: ['--stdio'],
    installStrategy: 'npm',
    installCommand: npmInstallCommand('typescript'),
    prerequisites: ['Node.js and npm on the task PATH'],
    managedDestination: displayNpmBinDir('typescript'),
    autoInstallable: true,
  },
  {
    id: 'python',
    name: 'Python',
    extensions: extensionsOf('python'),
    binary: NPM_SERVERS.python.bin,
    args: ['--stdio'],
    installStrategy: 'npm',
    installCommand: npmInstallCommand('python'),
    prerequisites: ['Node.js and npm on the task PATH'],
    managedDestination: displayNpmBinDir('python'),
    autoInstallable: true,
  },
  {
    id: 'go',
    name: 'Go',
    extensions: extensionsOf('go'),
    binary: 'gopls',
    args: [],
    installStrategy: 'go',
    installCommand: GO_INSTALL_COMMAND,
    prerequisites: ['Go toolchain on the task PATH'],
    managedDestination: 'GOBIN, GOPATH/bin or ~/go/bin',
    autoInstallable: true,
  },
  {
    id: 'rust',
    name: 'Rust',
    extensions: extensionsOf('rust'),
    binary: 'rust-analyzer',
    args: [],
    installStrategy: 'release',
    installCommand: 'rustup component add rust-analyzer',
    prerequisites: ['Linux or macOS task host for automatic install; on Windows install rust-analyzer manually'],
    managedDestination: displayManagedDir('rust'),
    autoInstallable: true,
  },
  {
    id: 'kotlin',
    name: 'Kotlin',
    extensions: extensionsOf('kotlin'),
    binary: 'kotlin-lsp',
    args: ['--stdio'],
    installStrategy: 'none',
    prerequisites: ['Install kotlin-lsp manually (JetBrains Kotlin LSP release) and put it on the task PATH', 'A JDK on the task PATH'],
    autoInstallable: false,
    experimental: true,
  },
];
