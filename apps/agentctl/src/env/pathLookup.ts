import { absoluteEntries, envValue, isWindows, pathFor, type TaskEnv } from './taskEnv.js';

/**
 * The task PATH the way the task's shell reads it, for language servers (resolveServer.ts) and for
 * the installers' tools (npm, go). Only absolute entries count: a relative entry (``, `.`,
 * `node_modules/.bin`, `.kandev/lsp-servers`) would resolve against agentctl's working directory,
 * possibly the repository, whose contents are never executed (S57).
 */
const DEFAULT_PATHEXT = ['.COM', '.EXE', '.BAT', '.CMD'];

/** The task PATH as a list of absolute directories (Windows: `Path` in any spelling, `;`, quotes). */
export function pathDirectories(env: TaskEnv, platform: NodeJS.Platform): string[] {
  return absoluteEntries(envValue(env, 'PATH', platform), platform);
}

/** PATHEXT of the task env (Windows only), upper-cased, with a default like cmd.exe's. */
export function pathExtensions(env: TaskEnv, platform: NodeJS.Platform, override?: readonly string[]): string[] {
  if (!isWindows(platform)) return [];
  const source = override ?? envValue(env, 'PATHEXT', platform)?.split(';') ?? DEFAULT_PATHEXT;
  const exts = source.map((e) => e.trim().toUpperCase()).filter((e) => /^\.[A-Z0-9]+$/.test(e));
  return exts.length > 0 ? exts : DEFAULT_PATHEXT;
}

/**
 * File names to look for. POSIX: the binary itself. Windows: only concrete launchers with a PATHEXT
 * extension (`gopls.exe`, `npm.cmd`, `typescript-language-server.cmd`), never npm's extensionless sh
 * shim, which Windows cannot execute.
 */
export function launcherNames(binary: string, platform: NodeJS.Platform, pathExt: readonly string[]): string[] {
  if (!isWindows(platform)) return [binary];
  const upper = binary.toUpperCase();
  if (pathExt.some((ext) => upper.endsWith(ext))) return [binary];
  return pathExt.map((ext) => `${binary}${ext.toLowerCase()}`);
}

/** Anything that can tell whether a platform path is a file this platform would execute. */
export interface LaunchableCheck {
  isLaunchable(path: string): boolean;
}

/** The first launchable `name` on the task PATH (an installer's tool: `npm`, `go`), or undefined. */
export function findOnPath(name: string, env: TaskEnv, platform: NodeJS.Platform, files: LaunchableCheck): string | undefined {
  const names = launcherNames(name, platform, pathExtensions(env, platform));
  for (const dir of pathDirectories(env, platform)) {
    for (const candidate of names) {
      const full = pathFor(platform).join(dir, candidate);
      if (files.isLaunchable(full)) return full;
    }
  }
  return undefined;
}
