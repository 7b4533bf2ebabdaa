import {
  displayManagedDir,
  displayNpmBinDir,
  GO_INSTALL_COMMAND,
  GOPLS_PACKAGE,
  isNpmLanguage,
  MANAGED_ROOT_SEGMENTS,
  NPM_BIN_SEGMENTS,
  npmInstallCommand,
  NPM_SERVERS,
  type LanguageId,
  type NpmLanguage,
  type NpmServer,
} from '@kandev/protocol';
import type { LaunchableCheck } from '../env/pathLookup.js';
import { absoluteEntries, absolutePath, envValue, isWindows, pathFor, type TaskEnv } from '../env/taskEnv.js';
import { HostFiles, identityPath, type ToHostPath } from './hostFs.js';

/**
 * Where language servers live once installed, and what is installed. Discovery (resolve/), the
 * installers and the catalog's install commands all read this one layout, so "is it installed?",
 * "where did we put it?" and "how do I install it by hand?" can never disagree.
 *
 *   <managed root>/typescript/node_modules/.bin/typescript-language-server[.cmd]
 *   <managed root>/python/node_modules/.bin/pyright-langserver[.cmd]
 *   <managed root>/vscode-langservers/node_modules/.bin/vscode-{json,css,html}-language-server[.cmd]
 *   <managed root>/{yaml,shell,dockerfile}/node_modules/.bin/<server>[.cmd]
 *   <managed root>/rust/rust-analyzer
 *   gopls: wherever `go install` puts it (GOBIN, GOPATH/bin, ~/go/bin), not in the managed root
 *
 * Each language directory is published whole by one rename, so it is either absent or complete.
 */
export const MANAGED_SEGMENTS = MANAGED_ROOT_SEGMENTS;
// What is installed (pinned packages) and how it reads to people live in the protocol's catalog.
export { GO_INSTALL_COMMAND, GOPLS_PACKAGE, NPM_SERVERS, displayManagedDir, displayNpmBinDir, isNpmLanguage, npmInstallCommand };
export type { NpmLanguage, NpmServer };

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

/** The folder of a language under the managed root; npm servers that share a package share it. */
export function languageDir(root: string, language: LanguageId, platform: NodeJS.Platform): string {
  return pathFor(platform).join(root, isNpmLanguage(language) ? NPM_SERVERS[language].dir : language);
}

/** The concrete launcher of an npm-installed server: the `.cmd` shim on Windows (S10). */
export function npmLauncher(dir: string, language: NpmLanguage, platform: NodeJS.Platform): string {
  const bin = NPM_SERVERS[language].bin;
  return pathFor(platform).join(dir, ...NPM_BIN_SEGMENTS, isWindows(platform) ? `${bin}.cmd` : bin);
}

export function rustAnalyzerBinary(dir: string, platform: NodeJS.Platform): string {
  return pathFor(platform).join(dir, isWindows(platform) ? 'rust-analyzer.exe' : 'rust-analyzer');
}

export function goplsName(platform: NodeJS.Platform): string {
  return isWindows(platform) ? 'gopls.exe' : 'gopls';
}

/**
 * The directory of the managed root that holds this language's launcher: npm servers in
 * <root>/<language>/node_modules/.bin, rust-analyzer in <root>/rust. Undefined for gopls (Go's own
 * bin dirs, goBinDirs), Kotlin and clangd (manual installs, found on the task PATH only).
 */
export function managedBinDir(root: string, language: LanguageId, platform: NodeJS.Platform): string | undefined {
  if (isNpmLanguage(language)) return pathFor(platform).join(languageDir(root, language, platform), ...NPM_BIN_SEGMENTS);
  if (language === 'rust') return languageDir(root, language, platform);
  return undefined;
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

export function findGopls(env: TaskEnv, platform: NodeJS.Platform, files: LaunchableCheck): string | undefined {
  const path = pathFor(platform);
  return goBinDirs(env, platform)
    .map((dir) => path.join(dir, goplsName(platform)))
    .find((candidate) => files.isLaunchable(candidate));
}

/** The launcher a previous install left, if it is complete; reads the same layout the installers write. */
export function findInstalled(language: LanguageId, env: TaskEnv, platform: NodeJS.Platform, files: LaunchableCheck): string | undefined {
  if (language === 'go') return findGopls(env, platform, files);
  // Manual installs only (kotlin-lsp, clangd): found on PATH by resolve/, never here.
  if (language === 'kotlin' || language === 'cpp') return undefined;
  const root = managedRoot(env, platform);
  if (root === undefined) return undefined;
  const dir = languageDir(root, language, platform);
  const launcher = isNpmLanguage(language) ? npmLauncher(dir, language, platform) : rustAnalyzerBinary(dir, platform);
  return files.isLaunchable(launcher) ? launcher : undefined;
}

/** findInstalled on this host's files (task paths mapped by `toHostPath`): the absolute launcher, or undefined. */
export function findManagedBinary(language: LanguageId, env: TaskEnv, platform: NodeJS.Platform, toHostPath: ToHostPath = identityPath): string | undefined {
  return findInstalled(language, env, platform, new HostFiles(toHostPath, platform));
}
