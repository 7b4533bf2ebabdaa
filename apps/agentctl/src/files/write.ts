import type { WriteFileResponse } from '@kandev/protocol';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { MAX_READ_BYTES } from './read.js';
import type { FilesError, FilesResult } from '../base/filesResult.js';
import { writeWorkspaceFileFrom } from './stagedWrite.js';
import { stagingName } from './stagingName.js';
import type { Workspace } from './workspace.js';

export type WriteOutcome = FilesResult<WriteFileResponse> | { ok: false; error: FilesError; currentVersion: string };

export { withPathLock, withPathLocks } from './pathLocks.js';

/** Temp file next to the target (same file system, so rename is atomic), then rename over it. */
export async function atomicWrite(target: string, bytes: Buffer, mode: number | undefined): Promise<void> {
  const temp = join(dirname(target), stagingName(target));
  const handle = await open(temp, 'wx', mode ?? 0o644);
  try {
    await handle.writeFile(bytes);
    // Keep the existing file's permissions even under a restrictive umask.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/**
 * Writes a workspace file from a string (the JSON form of a save). With `baseVersion`, the write
 * happens only when the current bytes still have that version (a missing file has version "");
 * otherwise 409 with the current version. Same staged writer as a streamed save.
 */
export async function writeWorkspaceFile(workspace: Workspace, rawPath: string, content: string, baseVersion: string | undefined): Promise<WriteOutcome> {
  const outcome = await writeWorkspaceFileFrom(workspace, rawPath, Readable.from([Buffer.from(content, 'utf8')]), { baseVersion, limit: MAX_READ_BYTES });
  if (outcome.ok || 'currentVersion' in outcome) return outcome;
  return { ok: false, error: outcome.error };
}
