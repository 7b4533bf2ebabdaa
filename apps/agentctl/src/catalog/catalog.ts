import type { LanguageCatalogEntry, LanguageId } from '@kandev/protocol';
import { LANGUAGE_FILES } from '@kandev/protocol';
import { displayManagedDir, displayNpmBinDir, GO_INSTALL_COMMAND, npmInstallCommand, NPM_SERVERS } from '../install/layout.js';

/**
 * The five languages agentctl can serve (DESIGN section 6). Data only: how a language's server is
 * found lives in resolve/, how it is installed in install/. Server binaries, install commands and
 * destinations come from the one managed layout (install/layout.ts), so the command shown to a
 * person installs exactly the pinned packages the installer would, where discovery looks.
 */
export interface CatalogLanguage extends LanguageCatalogEntry {
  /** Hosts whose agentctl has an installer for this language (empty: manual install only). */
  installerPlatforms: readonly NodeJS.Platform[];
}

const POSIX_AND_WINDOWS: readonly NodeJS.Platform[] = ['linux', 'darwin', 'win32'];

function extensionsOf(id: LanguageId): string[] {
  return [...(LANGUAGE_FILES.find((l) => l.id === id)?.extensions ?? [])];
}

export const CATALOG: readonly CatalogLanguage[] = [
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
    installerPlatforms: POSIX_AND_WINDOWS,
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
    installerPlatforms: POSIX_AND_WINDOWS,
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
    installerPlatforms: POSIX_AND_WINDOWS,
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
    // Release archives are fetched for Linux and macOS only; a manual Windows install still runs.
    installerPlatforms: ['linux', 'darwin'],
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
    installerPlatforms: [],
  },
];

export function catalogLanguage(id: LanguageId): CatalogLanguage {
  const entry = CATALOG.find((l) => l.id === id);
  // LanguageId and CATALOG are both closed sets; a missing entry is a build defect, not input.
  if (!entry) throw new Error(`catalog has no entry for ${id}`);
  return entry;
}

/** Whether agentctl on `platform` can install this language's server itself. Kotlin: never. */
export function hasInstallerFor(id: LanguageId, platform: NodeJS.Platform): boolean {
  const entry = catalogLanguage(id);
  return entry.autoInstallable && entry.installStrategy !== 'none' && entry.installerPlatforms.includes(platform);
}
