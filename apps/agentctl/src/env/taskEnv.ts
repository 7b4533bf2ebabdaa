import { posix, win32, type PlatformPath } from 'node:path';
import { isAgentctlVariable } from '@kandev/protocol';

/**
 * The task environment is not agentctl's process.env: language servers are found, installed and run
 * for the task (its HOME, PATH, GOBIN, ...), and tests inject a Windows platform on Linux. Every rule
 * here is therefore keyed on the given platform, never on the host's.
 */
export type TaskEnv = Readonly<Record<string, string | undefined>>;

export function isWindows(platform: NodeJS.Platform): boolean {
  return platform === 'win32';
}

/** The path flavour of a platform: separators, joining and normalization. */
export function pathFor(platform: NodeJS.Platform): PlatformPath {
  return isWindows(platform) ? win32 : posix;
}

/**
 * A set, non-empty variable (an empty `ComSpec` must not become the command). Windows variable names
 * are case-insensitive (`Path`, `PATH`): the exact spelling wins, then any other spelling.
 */
export function envValue(env: TaskEnv, name: string, platform: NodeJS.Platform): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct !== '') return direct;
  if (!isWindows(platform)) return undefined;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === upper && value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * `value` as a normalized absolute path of the platform, or undefined. A relative path would resolve
 * against agentctl's working directory, which may be the repository (S57). On Windows only a drive
 * root (`C:\`) or a UNC share (`\\server\share`) counts: `\foo` and `C:foo` depend on the process's
 * current drive and directory, not on the task.
 */
export function absolutePath(value: string | undefined, platform: NodeJS.Platform): string | undefined {
  if (!value) return undefined;
  const path = pathFor(platform);
  if (isWindows(platform)) return /^(?:[A-Za-z]:[\\/]|\\\\[^\\]+\\[^\\]+)/.test(value) ? path.normalize(value) : undefined;
  return path.isAbsolute(value) ? path.normalize(value) : undefined;
}

export function isAbsoluteFor(value: string, platform: NodeJS.Platform): boolean {
  return absolutePath(value, platform) !== undefined;
}

/**
 * The absolute entries of a list variable (PATH, GOPATH), in order, without repeats. Relative entries
 * (``, `.`, `node_modules/.bin`) are never trusted. Windows entries may be quoted
 * (`"C:\Program Files\x"`) and are separated by `;`.
 */
export function absoluteEntries(value: string | undefined, platform: NodeJS.Platform): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const entry of value.split(isWindows(platform) ? ';' : ':')) {
    const unquoted = isWindows(platform) ? entry.trim().replace(/^"(.*)"$/, '$1') : entry;
    const dir = absolutePath(unquoted, platform);
    if (dir !== undefined && !out.includes(dir)) out.push(dir);
  }
  return out;
}

/**
 * The environment a child of agentctl (language server, installer) gets: the task's, without unset
 * values and without agentctl's own AGENTCTL_* variables (its bearer token must never reach a child;
 * docs/internals.md), plus `overrides`. On Windows an override replaces the variable under any
 * spelling, so a child never sees both `GoBin` and `GOBIN`.
 */
export function childEnv(env: TaskEnv, overrides: TaskEnv = {}, platform: NodeJS.Platform = process.platform): Record<string, string> {
  const overridden = new Set(Object.keys(overrides).map((k) => (isWindows(platform) ? k.toUpperCase() : k)));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || isAgentctlVariable(key)) continue;
    if (overridden.has(isWindows(platform) ? key.toUpperCase() : key)) continue;
    out[key] = value;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined || isAgentctlVariable(key)) continue;
    out[key] = value;
  }
  return out;
}
