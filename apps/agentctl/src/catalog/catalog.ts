import { INSTALL_STRATEGY_OF_KIND, LANGUAGE_CATALOG, languageDescriptor, type LanguageCatalogEntry, type LanguageId } from '@kandev/protocol';

/**
 * The languages agentctl can serve. Data only: how a language's server is found lives in resolve/,
 * how it is installed in install/. Server binaries, install commands and destinations come from
 * the protocol's language descriptors, which the installers and the managed layout
 * (install/layout.ts) also read, so the command shown to a person installs exactly the pinned
 * packages the installer would, where discovery looks.
 */
export interface CatalogLanguage extends LanguageCatalogEntry {
  /** Hosts whose agentctl has an installer for this language (empty: manual install only). */
  installerPlatforms: readonly NodeJS.Platform[];
}

/** Hosts whose agentctl has an installer: the recipe's platforms, none for a server Kandev never installs. */
function installerPlatforms(id: LanguageId): readonly NodeJS.Platform[] {
  const recipe = languageDescriptor(id).install;
  return recipe.kind === 'never' ? [] : recipe.platforms;
}

export const CATALOG: readonly CatalogLanguage[] = LANGUAGE_CATALOG.map((entry) => ({ ...entry, installerPlatforms: installerPlatforms(entry.id) }));

export function catalogLanguage(id: LanguageId): CatalogLanguage {
  const entry = CATALOG.find((l) => l.id === id);
  // LanguageId and CATALOG are both closed sets; a missing entry is a build defect, not input.
  if (!entry) throw new Error(`catalog has no entry for ${id}`);
  return entry;
}

/** Whether agentctl on `platform` can install this language's server itself. Kotlin and clangd: never. */
export function hasInstallerFor(id: LanguageId, platform: NodeJS.Platform): boolean {
  const entry = catalogLanguage(id);
  return entry.autoInstallable && entry.installStrategy !== INSTALL_STRATEGY_OF_KIND.never && entry.installerPlatforms.includes(platform);
}
