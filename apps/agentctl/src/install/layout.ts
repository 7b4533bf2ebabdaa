import { languageDescriptor, MANAGED_ROOT_SEGMENTS, NPM_BIN_SEGMENTS, type InstallRecipe, type LanguageId, type NpmRecipe } from '@kandev/protocol';
import type { LaunchableCheck } from '../env/pathLookup.js';
import { absoluteEntries, absolutePath, envValue, isWindows, pathFor, type TaskEnv } from '../env/taskEnv.js';
import { HostFiles, identityPath, type ToHostPath } from './hostFs.js';

/**
 * Where language servers live once installed, and what is installed. Discovery (resolve/), the
 * installers and the catalog's install commands all read this one layout, from each language's
 * install recipe, so "is it installed?", "where did we put it?" and "how do I install it by hand?"
 * can never disagree.
 *
 *   npm:     <managed root>/<recipe dir>/node_modules/.bin/<bin>[.cmd]   (servers of one package share the dir)
 *   release: <managed root>/<recipe dir>/<binary>[.exe]
 *   go:      wherever `go install` puts it (GOBIN, GOPATH/bin, ~/go/bin), not in the managed root
 *   never:   nowhere of Kandev's; found on the task PATH only
 *
 * Each language directory is published whole by one rename, so it is either absent or complete.
 */
export const MANAGED_SEGMENTS = MANAGED_ROOT_SEGMENTS;
export type { NpmRecipe };
export type ReleaseRecipe = Extract<InstallRecipe, { kind: 'release' }>;

/**
 * The task's home: HOME, or USERPROFILE on Windows when HOME is not usable. Always the TASK env's
 * value, never agentctl's os.homedir() (S09: an executor may override HOME). Undefined when neither
 * is absolute: a relative home would resolve against agentctl's working directory, maybe the repository.
 */
export function taskHome(env: TaskEnv, platform: NodeJS.Platform): string | undefined {
  const home = absolutePath(envValue(env, 'HOME', platform), platform);
  if (home !== undefined || !isWindows(platform)) return home;
  return absolutePath(envValue(env, 'USERPROFILE', platform), platform);
}

/** `$HOME/.kandev/lsp-servers` of the TASK environment. */
export function managedRoot(env: TaskEnv, platform: NodeJS.Platform): string | undefined {
  const home = taskHome(env, platform);
  return home === undefined ? undefined : pathFor(platform).join(home, ...MANAGED_SEGMENTS);
}

/** The folder of a recipe under the managed root (npm servers that share a package share it). */
export function recipeDir(root: string, recipe: NpmRecipe | ReleaseRecipe, platform: NodeJS.Platform): string {
  return pathFor(platform).join(root, recipe.dir);
}

/** The concrete launcher of an npm-installed server: the `.cmd` shim on Windows (S10). */
export function npmLauncher(dir: string, recipe: NpmRecipe, platform: NodeJS.Platform): string {
  return pathFor(platform).join(dir, ...NPM_BIN_SEGMENTS, isWindows(platform) ? `${recipe.bin}.cmd` : recipe.bin);
}

/** A downloaded binary in its folder (`.exe` on Windows). */
export function executableIn(dir: string, binary: string, platform: NodeJS.Platform): string {
  return pathFor(platform).join(dir, executableName(binary, platform));
}

export function executableName(binary: string, platform: NodeJS.Platform): string {
  return isWindows(platform) ? `${binary}.exe` : binary;
}

/** Where each kind of recipe leaves its launcher inside the managed root (none: not there). */
const MANAGED_BIN_DIR: {
  [K in InstallRecipe['kind']]: (root: string, recipe: Extract<InstallRecipe, { kind: K }>, platform: NodeJS.Platform) => string | undefined;
} = {
  npm: (root, recipe, platform) => pathFor(platform).join(recipeDir(root, recipe, platform), ...NPM_BIN_SEGMENTS),
  release: (root, recipe, platform) => recipeDir(root, recipe, platform),
  // Go's own bin dirs (goBinDirs) are searched instead.
  go: () => undefined,
  // Manual installs: found on the task PATH only.
  never: () => undefined,
};

/** The directory of the managed root that holds this language's launcher, if its recipe installs there. */
export function managedBinDir(root: string, language: LanguageId, platform: NodeJS.Platform): string | undefined {
  const recipe = languageDescriptor(language).install;
  return (MANAGED_BIN_DIR[recipe.kind] as (root: string, recipe: InstallRecipe, platform: NodeJS.Platform) => string | undefined)(root, recipe, platform);
}

/**
 * Where `go install` may have put gopls, from the task's Go environment, in Go's own order: GOBIN,
 * each GOPATH entry's bin, then Go's default GOPATH ($HOME/go, or %USERPROFILE%\go on Windows).
 * Absolute paths only (S07, S08).
 */
export function goBinDirs(env: TaskEnv, platform: NodeJS.Platform): string[] {
  const path = pathFor(platform);
  const dirs: string[] = [];
  const gobin = absolutePath(envValue(env, 'GOBIN', platform), platform);
  if (gobin !== undefined) dirs.push(gobin);
  for (const entry of absoluteEntries(envValue(env, 'GOPATH', platform), platform)) dirs.push(path.join(entry, 'bin'));
  const homes = [envValue(env, 'HOME', platform)];
  if (isWindows(platform)) homes.push(envValue(env, 'USERPROFILE', platform));
  for (const home of homes) {
    const dir = absolutePath(home, platform);
    if (dir !== undefined) dirs.push(path.join(dir, 'go', 'bin'));
  }
  return [...new Set(dirs)];
}

export function findGoInstalled(binary: string, env: TaskEnv, platform: NodeJS.Platform, files: LaunchableCheck): string | undefined {
  const path = pathFor(platform);
  return goBinDirs(env, platform)
    .map((dir) => path.join(dir, executableName(binary, platform)))
    .find((candidate) => files.isLaunchable(candidate));
}

type InstalledLookup<R extends InstallRecipe> = (
  recipe: R,
  binary: string,
  env: TaskEnv,
  platform: NodeJS.Platform,
  files: LaunchableCheck,
) => string | undefined;

function inManagedRoot(env: TaskEnv, platform: NodeJS.Platform, files: LaunchableCheck, launcherIn: (root: string) => string): string | undefined {
  const root = managedRoot(env, platform);
  if (root === undefined) return undefined;
  const launcher = launcherIn(root);
  return files.isLaunchable(launcher) ? launcher : undefined;
}

/** Where a finished install of each kind of recipe left its launcher. */
const INSTALLED: { [K in InstallRecipe['kind']]: InstalledLookup<Extract<InstallRecipe, { kind: K }>> } = {
  npm: (recipe, _binary, env, platform, files) =>
    inManagedRoot(env, platform, files, (root) => npmLauncher(recipeDir(root, recipe, platform), recipe, platform)),
  release: (recipe, binary, env, platform, files) =>
    inManagedRoot(env, platform, files, (root) => executableIn(recipeDir(root, recipe, platform), binary, platform)),
  go: (_recipe, binary, env, platform, files) => findGoInstalled(binary, env, platform, files),
  // Manual installs only: found on PATH by resolve/, never here.
  never: () => undefined,
};

/** The launcher a previous install left, if it is complete; reads the same layout the installers write. */
export function findInstalled(language: LanguageId, env: TaskEnv, platform: NodeJS.Platform, files: LaunchableCheck): string | undefined {
  const { install, server } = languageDescriptor(language);
  return (INSTALLED[install.kind] as InstalledLookup<InstallRecipe>)(install, server.binary, env, platform, files);
}

/** findInstalled on this host's files (task paths mapped by `toHostPath`): the absolute launcher, or undefined. */
export function findManagedBinary(language: LanguageId, env: TaskEnv, platform: NodeJS.Platform, toHostPath: ToHostPath = identityPath): string | undefined {
  return findInstalled(language, env, platform, new HostFiles(toHostPath, platform));
}
