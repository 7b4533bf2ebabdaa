import { posix, win32 } from 'node:path';

/**
 * The task environment is not process.env: agentctl installs for the task (its HOME, PATH, GOBIN...),
 * and tests inject a Windows platform on Linux. Every path rule here is therefore keyed on the
 * injected platform, never on the host's.
 */
export type TaskEnv = Record<string, string | undefined>;

export function pathFor(platform: NodeJS.Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

/** A set, non-empty variable; Windows variable names are case-insensitive (`Path`, `PATH`). */
export function envValue(env: TaskEnv, name: string, platform: NodeJS.Platform): string | undefined {
  const direct = env[name];
  if (direct !== undefined && direct !== '') return direct;
  if (platform !== 'win32') return undefined;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === upper && value !== undefined && value !== '') return value;
  }
  return undefined;
}

/**
 * Absolute in the platform's own sense. On Windows only a drive or UNC root counts: `\foo` is
 * relative to the current drive, which depends on the process, not on the task.
 */
export function isAbsoluteFor(path: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') return /^[A-Za-z]:[\\/]/.test(path) || /^\\\\[^\\]/.test(path);
  return path.startsWith('/');
}

/** Entries of a list variable (PATH, GOPATH) that are absolute; relative entries are never trusted. */
export function absoluteEntries(value: string | undefined, platform: NodeJS.Platform): string[] {
  if (!value) return [];
  const separator = platform === 'win32' ? ';' : ':';
  return value
    .split(separator)
    .map((entry) => (platform === 'win32' ? entry.replace(/^"(.*)"$/, '$1') : entry))
    .filter((entry) => entry !== '' && isAbsoluteFor(entry, platform));
}

/**
 * The environment an installer process gets: the task's, without unset values and without agentctl's
 * own AGENTCTL_* variables (its bearer token must never reach a child; docs/internals.md).
 */
export function installerEnv(env: TaskEnv, overrides: TaskEnv = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries({ ...env, ...overrides })) {
    if (value === undefined || key.toUpperCase().startsWith('AGENTCTL_')) continue;
    out[key] = value;
  }
  return out;
}
