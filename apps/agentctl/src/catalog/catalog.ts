import { LANGUAGE_CATALOG, type LanguageCatalogEntry, type LanguageId } from '@kandev/protocol';

/**
 * The languages agentctl can serve (DESIGN section 6). Data only: how a language's server is
 * found lives in resolve/, how it is installed in install/. Server binaries, install commands and
 * destinations come from the protocol's catalog, which the installers and the managed layout
 * (install/layout.ts) also read, so the command shown to a person installs exactly the pinned
 * packages the installer would, where discovery looks.
 */
export interface CatalogLanguage extends LanguageCatalogEntry {
  /** Hosts whose agentctl has an installer for this language (empty: manual install only). */
  installerPlatforms: readonly NodeJS.Platform[];
}

const POSIX_AND_WINDOWS: readonly NodeJS.Platform[] = ['linux', 'darwin', 'win32'];

/** Hosts whose agentctl has an installer, per language (empty: manual install only). */
const INSTALLER_PLATFORMS: Readonly<Record<LanguageId, readonly NodeJS.Platform[]>> = {
  typescript: POSIX_AND_WINDOWS,
  python: POSIX_AND_WINDOWS,
  go: POSIX_AND_WINDOWS,
  // Release archives are fetched for Linux and macOS only; a manual Windows install still runs.
  rust: ['linux', 'darwin'],
  kotlin: [],
  json: POSIX_AND_WINDOWS,
  yaml: POSIX_AND_WINDOWS,
  shell: POSIX_AND_WINDOWS,
  dockerfile: POSIX_AND_WINDOWS,
  css: POSIX_AND_WINDOWS,
  html: POSIX_AND_WINDOWS,
  // clangd comes from the host's package manager (it must match the host's libc and LLVM).
  cpp: [],
};

export const CATALOG: readonly CatalogLanguage[] = LANGUAGE_CATALOG.map((entry) => ({ ...entry, installerPlatforms: INSTALLER_PLATFORMS[entry.id] }));

export function catalogLanguage(id: LanguageId): CatalogLanguage {
  const entry = CATALOG.find((l) => l.id === id);
  // LanguageId and CATALOG are both closed sets; a missing entry is a build defect, not input.
  if (!entry) throw new Error(`catalog has no entry for ${id}`);
  return entry;
}

/** Whether agentctl on `platform` can install this language's server itself. Kotlin and clangd: never. */
export function hasInstallerFor(id: LanguageId, platform: NodeJS.Platform): boolean {
  const entry = catalogLanguage(id);
  return entry.autoInstallable && entry.installStrategy !== 'none' && entry.installerPlatforms.includes(platform);
}
