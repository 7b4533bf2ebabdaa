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

export type NpmLanguage = 'typescript' | 'python' | 'json' | 'css' | 'html' | 'yaml' | 'shell' | 'dockerfile';

export interface NpmServer {
  /**
   * Pinned to versions that run on Node 20 (checked with `npm view <pkg>@<ver> engines`):
   * typescript-language-server 5 and TypeScript 6 need >= 20; bash-language-server 5 needs >= 20;
   * yaml-language-server stays on 1 because 2 needs Node >= 22.13; vscode-langservers-extracted 4
   * and dockerfile-language-server-nodejs 0.15 declare no engine limit below 20.
   */
  packages: readonly string[];
  bin: string;
  /**
   * The folder under the managed root the packages are installed into. JSON, CSS and HTML share
   * one (one package ships the three servers), so it is installed once and found by all three.
   */
  dir: string;
}

const VSCODE_LANGSERVERS = ['vscode-langservers-extracted@4'] as const;

export const NPM_SERVERS: Readonly<Record<NpmLanguage, NpmServer>> = {
  typescript: { packages: ['typescript-language-server@5', 'typescript@6'], bin: 'typescript-language-server', dir: 'typescript' },
  python: { packages: ['pyright@1'], bin: 'pyright-langserver', dir: 'python' },
  json: { packages: VSCODE_LANGSERVERS, bin: 'vscode-json-language-server', dir: 'vscode-langservers' },
  css: { packages: VSCODE_LANGSERVERS, bin: 'vscode-css-language-server', dir: 'vscode-langservers' },
  html: { packages: VSCODE_LANGSERVERS, bin: 'vscode-html-language-server', dir: 'vscode-langservers' },
  yaml: { packages: ['yaml-language-server@1'], bin: 'yaml-language-server', dir: 'yaml' },
  shell: { packages: ['bash-language-server@5'], bin: 'bash-language-server', dir: 'shell' },
  dockerfile: { packages: ['dockerfile-language-server-nodejs@0.15'], bin: 'docker-langserver', dir: 'dockerfile' },
};

export const GOPLS_PACKAGE = 'golang.org/x/tools/gopls@latest';
export const GO_INSTALL_COMMAND = `go install ${GOPLS_PACKAGE}`;

export function isNpmLanguage(language: LanguageId): language is NpmLanguage {
  return Object.prototype.hasOwnProperty.call(NPM_SERVERS, language);
}

/** A folder under the managed root as people write it (`~/.kandev/lsp-servers/...`). */
export function displayManagedDir(...segments: string[]): string {
  return ['~', ...MANAGED_ROOT_SEGMENTS, ...segments].join('/');
}

export function displayNpmBinDir(language: NpmLanguage): string {
  return displayManagedDir(NPM_SERVERS[language].dir, ...NPM_BIN_SEGMENTS);
}

/** The by-hand equivalent of the npm installer: the same pinned packages into the same folder. */
export function npmInstallCommand(language: NpmLanguage): string {
  return `npm install --prefix ${displayManagedDir(NPM_SERVERS[language].dir)} ${NPM_SERVERS[language].packages.join(' ')}`;
}

function extensionsOf(id: LanguageId): string[] {
  return [...(LANGUAGE_FILES.find((l) => l.id === id)?.extensions ?? [])];
}

function fileNamesOf(id: LanguageId): string[] {
  return [...(LANGUAGE_FILES.find((l) => l.id === id)?.fileNames ?? [])];
}

const NODE_PREREQUISITE = 'Node.js 20 or newer and npm on the task PATH';

/** A server installed with npm into the managed root: the card is derived from NPM_SERVERS alone. */
function npmEntry(id: NpmLanguage, name: string, args: string[], extraPrerequisites: string[] = []): LanguageCatalogEntry {
  const entry: LanguageCatalogEntry = {
    id,
    name,
    extensions: extensionsOf(id),
    binary: NPM_SERVERS[id].bin,
    args,
    installStrategy: 'npm',
    installCommand: npmInstallCommand(id),
    prerequisites: [NODE_PREREQUISITE, ...extraPrerequisites],
    managedDestination: displayNpmBinDir(id),
    autoInstallable: true,
  };
  const fileNames = fileNamesOf(id);
  if (fileNames.length > 0) entry.fileNames = fileNames;
  return entry;
}

/** clangd is never installed by Kandev: the system package manager knows the host's libc and LLVM. */
export const CLANGD_INSTALL_COMMAND = 'apt-get install clangd';

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
  npmEntry('json', 'JSON', ['--stdio']),
  npmEntry('yaml', 'YAML', ['--stdio']),
  npmEntry('shell', 'Shell (Bash)', ['start'], ['Optional: shellcheck on the task PATH for lint diagnostics (Debian/Ubuntu: apt-get install shellcheck)']),
  npmEntry('dockerfile', 'Dockerfile', ['--stdio']),
  npmEntry('css', 'CSS / SCSS / Less', ['--stdio']),
  npmEntry('html', 'HTML', ['--stdio']),
  {
    id: 'cpp',
    name: 'C / C++',
    extensions: extensionsOf('cpp'),
    binary: 'clangd',
    // No background index: it would write .cache/clangd into the repository the person is browsing.
    args: ['--background-index=false'],
    installStrategy: 'none',
    installCommand: CLANGD_INSTALL_COMMAND,
    prerequisites: [
      "Install clangd with the task host's package manager (Debian/Ubuntu: apt-get install clangd; Fedora: dnf install clang-tools-extra; macOS: brew install llvm) and put it on the task PATH",
      'A compile_commands.json (or compile_flags.txt) at the repository root for accurate diagnostics',
    ],
    autoInstallable: false,
  },
];
