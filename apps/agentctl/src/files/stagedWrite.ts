import type { WriteFileResponse } from '@kandev/protocol';
import { createHash } from 'node:crypto';
import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok, type FilesError, type FilesResult } from '../base/filesResult.js';
import { MAX_READ_BYTES } from './read.js';
import { fileVersion } from './version.js';
import { withPathLock } from './pathLocks.js';
import { stagingName } from './stagingName.js';
import type { Workspace } from './workspace.js';

/**
 * What a save can come to: written (the new version), or refused with nothing on disk changed:
 * a stale base version (409 with the current one), a body over the limit (413 with the limit),
 * a body that never ended (the client went away or the stream broke), or a path refusal.
 */
export type StagedWriteOutcome =
  | FilesResult<WriteFileResponse>
  | { ok: false; error: FilesError; currentVersion: string }
  | { ok: false; error: FilesError; limit: number }
  | { ok: false; error: FilesError; cutOff: true };

export interface StagedWriteOptions {
  /** The version the client read; undefined writes whatever is on disk, "" means "must not exist". */
  baseVersion: string | undefined;
  /** The most bytes the body may have; counted while it streams. */
  limit: number;
  /** False when the body ended without being complete (an HTTP request cut off mid-body). */
  complete?: () => boolean;
  /**
   * Aborted when the body's source is gone (the connection closed mid-body). A body's iterator may
   * never settle for a request that closed before it was first read; this ends the wait regardless.
   */
  cutOff?: AbortSignal;
}

type Staged = { ok: true; temp: string; version: string } | Exclude<StagedWriteOutcome, { ok: true } | { currentVersion: string }>;

/**
 * Streams `body` into a temp file in `folder`, hashing the bytes as they pass; at most one chunk is
 * in memory. Whatever goes wrong, the temp file is gone when this returns anything but ok.
 */
async function stage(folder: string, target: string, body: AsyncIterable<Uint8Array>, options: StagedWriteOptions): Promise<Staged> {
  const temp = join(folder, stagingName(target));
  const handle = await open(temp, 'wx', 0o644);
  let kept = false;
  const hungUp = new Promise<'hung_up'>((resolve) => {
    if (options.cutOff?.aborted) resolve('hung_up');
    options.cutOff?.addEventListener('abort', () => resolve('hung_up'), { once: true });
  });
  try {
    const hash = createHash('sha256');
    let size = 0;
    const chunks = body[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Uint8Array> | 'hung_up';
      try {
        next = await Promise.race([chunks.next(), hungUp]);
      } catch {
        next = 'hung_up';
      }
      if (next === 'hung_up') return { ok: false, error: { status: 400, code: 'bad_request', message: 'the request body was cut off' }, cutOff: true };
      if (next.done) break;
      const chunk = next.value;
      size += chunk.byteLength;
      if (size > options.limit) {
        // Stop reading here: the rest of the body is never written anywhere.
        await chunks.return?.();
        return { ok: false, error: { status: 413, code: 'too_large', message: `the content is larger than ${options.limit} bytes` }, limit: options.limit };
      }
      hash.update(chunk);
      for (let offset = 0; offset < chunk.byteLength;) offset += (await handle.write(chunk, offset)).bytesWritten;
    }
    if (options.complete && !options.complete()) {
      return { ok: false, error: { status: 400, code: 'bad_request', message: 'the request body was cut off' }, cutOff: true };
    }
    await handle.sync();
    kept = true;
    return { ok: true, temp, version: hash.digest('hex') };
  } finally {
    await handle.close().catch(() => undefined);
    if (!kept) await unlink(temp).catch(() => undefined);
  }
}

/**
 * Writes a workspace file from a stream of bytes (docs/internals.md, "Saving"). The body goes to a
 * temp file beside the target first (in its deepest existing folder: same file system, so the final
 * rename is atomic, and no folder is created for a save that fails). Only a complete body within the
 * limit reaches the path lock, where the base version is checked against the file as it is then and
 * the temp file is renamed over it. No temp file outlives a failure.
 */
export async function writeWorkspaceFileFrom(
  workspace: Workspace,
  rawPath: string,
  body: AsyncIterable<Uint8Array>,
  options: StagedWriteOptions,
): Promise<StagedWriteOutcome> {
  const confined = await workspace.confineForWrite(rawPath);
  if (!confined.ok) return confined;
  const { target, existingParent } = confined.value;
  const staged = await stage(existingParent, target, body, options);
  if (!staged.ok) return staged;
  let renamed = false;
  try {
    return await withPathLock(target, async (): Promise<StagedWriteOutcome> => {
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
      if (options.baseVersion !== undefined && options.baseVersion !== current) {
        return { ok: false, error: { status: 409, code: 'conflict', message: 'the file changed since it was read' }, currentVersion: current };
      }
      // Folders are made only now, for a save that will happen; the recheck below catches one
      // swapped for a link meanwhile, so nothing is written through it.
      for (const dir of confined.value.missingDirs) {
        await mkdir(dir).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
        });
      }
      const recheck = await workspace.confineForWrite(rawPath);
      if (!recheck.ok || recheck.value.target !== target) return fail(403, 'path_outside_workspace', 'path is outside the workspace');
      // Keep the existing file's permissions even under a restrictive umask.
      if (mode !== undefined) await chmod(staged.temp, mode);
      await rename(staged.temp, target);
      renamed = true;
      return ok({ version: staged.version });
    });
  } finally {
    if (!renamed) await unlink(staged.temp).catch(() => undefined);
  }
}
