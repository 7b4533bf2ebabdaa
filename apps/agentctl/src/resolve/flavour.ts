import { posix, win32, type PlatformPath } from 'node:path';

/** The environment a language server runs in: the task's, never agentctl's own parent process's. */
export type TaskEnv = Readonly<Record<string, string | undefined>>;

/**
 * The host rules resolution depends on, injectable so Windows rules are tested on Linux:
 * which OS, which path flavour (separator, absoluteness) and the PATH list delimiter.
 */
export interface HostFlavour {
  platform: NodeJS.Platform;
  path: PlatformPath;
}

export function hostFlavour(platform: NodeJS.Platform = process.platform): HostFlavour {
  return { platform, path: platform === 'win32' ? win32 : posix };
}

export function isWindows(flavour: HostFlavour): boolean {
  return flavour.platform === 'win32';
}

/** Reads an environment variable; names are case-insensitive on Windows (`Path`, `PATH`). */
export function envValue(env: TaskEnv, name: string, flavour: HostFlavour): string | undefined {
  if (!isWindows(flavour)) return env[name];
  const wanted = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/** An absolute path in this flavour, or undefined: relative entries would depend on the cwd. */
export function absoluteOrUndefined(value: string | undefined, flavour: HostFlavour): string | undefined {
  if (!value) return undefined;
  // On Windows `\\foo` and `C:foo` are "absolute-ish" but drive-relative; require a full root.
  if (isWindows(flavour)) return /^(?:[A-Za-z]:[\\/]|\\\\[^\\]+\\[^\\]+)/.test(value) ? flavour.path.normalize(value) : undefined;
  return flavour.path.isAbsolute(value) ? flavour.path.normalize(value) : undefined;
}
