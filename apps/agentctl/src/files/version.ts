import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';

/** A file's version: the sha256 hex of its bytes (docs/internals.md). */
export function contentVersion(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The version of a file on disk, hashed as it streams (memory stays one chunk whatever the size):
 * 'not_file' for a folder or device, 'too_large' above `limit` (no client can hold that version).
 */
export async function fileVersion(path: string, limit: number): Promise<string | 'too_large' | 'not_file'> {
  const handle = await open(path, 'r');
  try {
    const st = await handle.stat();
    if (!st.isFile()) return 'not_file';
    if (st.size > limit) return 'too_large';
    const hash = createHash('sha256');
    let read = 0;
    for await (const chunk of createReadStream('', { fd: handle.fd, autoClose: false, start: 0, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > limit) return 'too_large';
      hash.update(chunk);
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}
