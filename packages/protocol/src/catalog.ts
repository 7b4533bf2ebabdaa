import type { LanguageCatalogEntry } from './api.js';
import { INSTALL_STRATEGY_OF_KIND, LANGUAGE_DESCRIPTORS, type InstallRecipe, type LanguageDescriptor, type LanguageId } from './languages/index.js';

/**
 * The language catalog as people see it: what serves each language, how it is installed and where
 * it ends up, derived from the language descriptors. Shared so the backend can show the Editors
 * settings cards without a task host, and agentctl installs exactly what the card says. Whether a
 * given host can install is agentctl's decision alone (it knows its OS).
 */

/** The managed root below a task's HOME: `$HOME/.kandev/lsp-servers`. */
export const MANAGED_ROOT_SEGMENTS = ['.kandev', 'lsp-servers'] as const;
/** Where npm puts a package's launchers inside its --prefix. */
export const NPM_BIN_SEGMENTS = ['node_modules', '.bin'] as const;

export type NpmRecipe = Extract<InstallRecipe, { kind: 'npm' }>;

/** A folder under the managed root as people write it (`~/.kandev/lsp-servers/...`). */
export function displayManagedDir(...segments: string[]): string {
  return ['~', ...MANAGED_ROOT_SEGMENTS, ...segments].join('/');
}

/** The by-hand equivalent of the npm installer: the same pinned packages into the same folder. */
export function npmInstallCommand(recipe: NpmRecipe): string {
  return `npm install --prefix ${displayManagedDir(recipe.dir)} ${recipe.packages.join(' ')}`;
}

type CardInstall = Pick<LanguageCatalogEntry, 'installStrategy' | 'installCommand' | 'managedDestination'>;

/** What each kind of recipe tells a person: the strategy, the by-hand command and where it ends up. */
const CARD_INSTALL: { [K in InstallRecipe['kind']]: (recipe: Extract<InstallRecipe, { kind: K }>) => CardInstall } = {
  npm: (r) => ({
    installStrategy: INSTALL_STRATEGY_OF_KIND.npm,
    installCommand: npmInstallCommand(r),
    managedDestination: displayManagedDir(r.dir, ...NPM_BIN_SEGMENTS),
  }),
  go: (r) => ({ installStrategy: INSTALL_STRATEGY_OF_KIND.go, installCommand: `go install ${r.module}`, managedDestination: 'GOBIN, GOPATH/bin or ~/go/bin' }),
  release: (r) => ({ installStrategy: INSTALL_STRATEGY_OF_KIND.release, installCommand: r.manualCommand, managedDestination: displayManagedDir(r.dir) }),
  never: (r) => ({ installStrategy: INSTALL_STRATEGY_OF_KIND.never, ...(r.manualCommand === null ? {} : { installCommand: r.manualCommand }) }),
};

function cardInstall(recipe: InstallRecipe): CardInstall {
  return (CARD_INSTALL[recipe.kind] as (r: InstallRecipe) => CardInstall)(recipe);
}

function catalogEntry(d: LanguageDescriptor<LanguageId>): LanguageCatalogEntry {
  const install = cardInstall(d.install);
  // Fields in the order the API has always sent them; optional ones only when they say something.
  const entry: LanguageCatalogEntry = {
    id: d.id,
    name: d.catalog.name,
    extensions: [...d.files.extensions],
    binary: d.server.binary,
    args: [...d.server.args],
    installStrategy: install.installStrategy,
    ...(install.installCommand === undefined ? {} : { installCommand: install.installCommand }),
    prerequisites: [...d.catalog.prerequisites],
    ...(install.managedDestination === undefined ? {} : { managedDestination: install.managedDestination }),
    autoInstallable: d.install.kind !== 'never',
  };
  if (d.catalog.experimental) entry.experimental = true;
  if (d.files.fileNames.length > 0) entry.fileNames = [...d.files.fileNames];
  return entry;
}

export const LANGUAGE_CATALOG: readonly LanguageCatalogEntry[] = LANGUAGE_DESCRIPTORS.map(catalogEntry);
