import type { WriteFileResponse } from '@kandev/protocol';
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MAX_READ_BYTES } from './read.js';
import { fail, ok, type FilesError, type FilesResult } from '../base/filesResult.js';
import { contentVersion, fileVersion } from './version.js';
import type { Workspace } from './workspace.js';

export type WriteOutcome = FilesResult<WriteFileResponse> | { ok: false; error: FilesError; currentVersion: string };

/** Writes to one real path are serialized, so "check the version, then rename" is atomic here. */
const locks = new Map<string, Promise<unknown>>();

/** Holds the locks of several real paths at once (taken in sorted order, so two batches cannot deadlock). */
export async function withPathLocks<T>(paths: readonly string[], work: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const step = (i: number): Promise<T> => (i === sorted.length ? work() : withPathLock(sorted[i] as string, () => step(i + 1)));
  return step(0);
}

export async function withPathLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const previous = locks.get(path) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  locks.set(path, settled);
  try {
    return await run;
  } finally {
    if (locks.get(path) === settled) locks.delete(path);
  }
}

/** Temp file next to the target (same file system, so rename is atomic), then rename over it. */
export async function atomicWrite(target: string, bytes: Buffer, mode: number | undefined): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.kandev-${randomBytes(6).toString('hex')}.tmp`);
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
 * Writes a workspace file. With `baseVersion`, the write happens only when the current bytes still
 * have that version (a missing file has version ""); otherwise 409 with the current version.
 */
export async function writeWorkspaceFile(workspace: Workspace, rawPath: string, content: string, baseVersion: string | undefined): Promise<WriteOutcome> {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length > MAX_READ_BYTES) return fail(413, 'too_large', `content is larger than ${MAX_READ_BYTES} bytes`);
  const confined = await workspace.confineForWrite(rawPath);
  if (!confined.ok) return confined;
  const { target } = confined.value;
  return withPathLock(target, async (): Promise<WriteOutcome> => {
    let current = '';
    let mode: number | undefined;
    try {
      const version = await fileVersion(target, MAX_READ_BYTES);
      if (version === 'not_file') return fail(400, 'bad_request', 'path is not a regular file');
      // A file too large to read has no version a client could know: any base version conflicts.
      current = version;
      mode = (await stat(target)).mode & 0o7777;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (baseVersion !== undefined && baseVersion !== current) {
      return { ok: false, error: { status: 409, code: 'conflict', message: 'the file changed since it was read' }, currentVersion: current };
    }
    for (const dir of confined.value.missingDirs) {
      await mkdir(dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    }
    // Re-check after creating folders: a folder swapped for a link meanwhile must not be written through.
    const recheck = await workspace.confineForWrite(rawPath);
    if (!recheck.ok || recheck.value.target !== target) return fail(403, 'path_outside_workspace', 'path is outside the workspace');
    await atomicWrite(target, bytes, mode);
    return ok({ version: contentVersion(bytes) });
  });
}
