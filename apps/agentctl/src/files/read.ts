import { MAX_OPEN_FILE_BYTES, type ReadFileResponse } from '@kandev/protocol';
import { open } from 'node:fs/promises';
import { fail, ok, type FilesResult } from '../base/filesResult.js';
import { contentVersion } from './version.js';
import type { Workspace } from './workspace.js';

/** What the files API reads or writes at most (the editor's limit, in packages/protocol). */
export const MAX_READ_BYTES = MAX_OPEN_FILE_BYTES;

/**
 * Reads at most `limit` bytes of a regular file; undefined when it is larger. Reads through one
 * handle, so a file that grows between stat and read is still caught.
 */
export async function readBounded(path: string, limit: number): Promise<{ kind: 'file'; bytes: Buffer } | { kind: 'too_large' } | { kind: 'not_file' }> {
  const handle = await open(path, 'r');
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { kind: 'not_file' };
    if (st.size > limit) return { kind: 'too_large' };
    // As large as the file (plus one byte to notice growth), never the whole limit up front.
    const buffer = Buffer.alloc(Math.min(st.size, limit) + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled > limit || filled === buffer.length) return { kind: 'too_large' };
    }
    return { kind: 'file', bytes: buffer.subarray(0, filled) };
  } finally {
    await handle.close();
  }
}

export async function readWorkspaceFile(workspace: Workspace, rawPath: string): Promise<FilesResult<ReadFileResponse>> {
  const confined = await workspace.confineExisting(rawPath);
  if (!confined.ok) return confined;
  if (confined.value.rel.segments.length === 0) return fail(400, 'bad_request', 'a file path is required');
  const read = await readBounded(confined.value.real, MAX_READ_BYTES);
  if (read.kind === 'not_file') return fail(400, 'bad_request', 'path is not a regular file');
  if (read.kind === 'too_large') return fail(413, 'too_large', `file is larger than ${MAX_READ_BYTES} bytes`);
  return ok({ content: read.bytes.toString('utf8'), version: contentVersion(read.bytes) });
}
