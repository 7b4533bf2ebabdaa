import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * KANDEV_HOME holds the access token, the database (task env, repository paths) and logs: only its
 * owner may read it. Created 0700; an existing folder that others can read is tightened, because a
 * home made by an older Kandev (or by hand) must not keep leaking what it holds.
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  tighten(path, 0o700);
}

/**
 * Creates `path` empty with mode 0600 when it is missing, and tightens it when it exists. Files that
 * a library creates itself (SQLite) are created this way first, so they never exist world-readable.
 */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  tighten(path, 0o600);
}

/** Tightens an existing file or folder to `mode`; a missing one is left missing. */
export function tightenIfPresent(path: string, mode: number): void {
  try {
    tighten(path, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function tighten(path: string, mode: number): void {
  if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
}
