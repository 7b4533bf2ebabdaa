import { randomBytes } from 'node:crypto';
import { pathFor } from '../env/taskEnv.js';
import type { HostFiles } from './hostFs.js';

/**
 * Atomic publication: an installer works in a staging directory next to its destination (same file
 * system, so rename is atomic) and the result appears by one rename. A reader of the destination
 * sees nothing or a complete install, never a partial binary, even if agentctl dies mid-install.
 */
export const STAGING_PREFIX = '.staging-';
const TRASH_PREFIX = '.trash-';
/** Staging left by a crashed agentctl is removed after this long; younger ones may be another agentctl's. */
export const STALE_STAGING_MS = 24 * 60 * 60 * 1000;

function uniqueName(prefix: string, label: string): string {
  return `${prefix}${label}-${randomBytes(6).toString('hex')}`;
}

/** Creates a fresh, empty staging directory inside `parent` (created if missing). */
export async function createStaging(files: HostFiles, platform: NodeJS.Platform, parent: string, label: string): Promise<string> {
  await files.mkdirp(parent);
  const dir = pathFor(platform).join(parent, uniqueName(STAGING_PREFIX, label));
  await files.mkdirExclusive(dir);
  return dir;
}

/** Removes staging and trash directories in `parent` older than STALE_STAGING_MS. */
export async function sweepStale(files: HostFiles, platform: NodeJS.Platform, parent: string, now: number): Promise<void> {
  for (const name of await files.list(parent)) {
    if (!name.startsWith(STAGING_PREFIX) && !name.startsWith(TRASH_PREFIX)) continue;
    const path = pathFor(platform).join(parent, name);
    const mtime = await files.modifiedAt(path);
    if (mtime !== undefined && now - mtime > STALE_STAGING_MS) await files.remove(path);
  }
}

const TARGET_TAKEN = new Set(['ENOTEMPTY', 'EEXIST', 'EPERM', 'EACCES', 'EBUSY']);

/**
 * Renames the staging directory to `target`. When the target already exists: if it is complete
 * (another agentctl on the same HOME published first) ours is discarded and theirs kept; if it is
 * incomplete (a launcher deleted by hand) it is moved aside, ours put in place, and the old removed.
 */
export async function publishDirectory(
  files: HostFiles,
  platform: NodeJS.Platform,
  staging: string,
  target: string,
  isComplete: (dir: string) => boolean,
): Promise<void> {
  try {
    await files.rename(staging, target);
    return;
  } catch (err) {
    if (!TARGET_TAKEN.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  if (isComplete(target)) {
    await files.remove(staging);
    return;
  }
  const path = pathFor(platform);
  const trash = path.join(path.dirname(target), uniqueName(TRASH_PREFIX, path.basename(target)));
  await files.rename(target, trash);
  await files.rename(staging, target);
  await files.remove(trash);
}

/** Renames one staged file over `target` (atomic replace on POSIX and, via MoveFileEx, on Windows). */
export async function publishFile(files: HostFiles, staged: string, target: string): Promise<void> {
  await files.rename(staged, target);
}
