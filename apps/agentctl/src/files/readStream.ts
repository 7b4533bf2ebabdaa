import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { MAX_OPEN_FILE_BYTES } from '@kandev/protocol';
import { sendError } from '../http/respond.js';
import type { Workspace } from './workspace.js';

/** Chunks read and sent at a time: memory per open file stays about this, whatever its size. */
const CHUNK_BYTES = 256 * 1024;

/** A chunk of text as the inside of a JSON string (JSON.stringify's escaping, without the quotes). */
function jsonStringBody(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.slice(1, -1);
}

/**
 * GET file: `{"content","version"}` written as the file is read, one chunk at a time, hashing the
 * same bytes it sends, so the version always belongs to the content sent even if the file changes
 * meanwhile. Files above MAX_OPEN_FILE_BYTES are refused (413 `too_large`, with `size` and
 * `limit`); a file that grows past it while being read ends the response early (the client sees a
 * broken body, never a truncated file presented as whole).
 */
export async function streamWorkspaceFile(workspace: Workspace, rawPath: string, res: ServerResponse, limit = MAX_OPEN_FILE_BYTES): Promise<void> {
  const confined = await workspace.confineExisting(rawPath);
  if (!confined.ok) {
    sendError(res, confined.error.status, confined.error.code, confined.error.message);
    return;
  }
  if (confined.value.rel.segments.length === 0) {
    sendError(res, 400, 'bad_request', 'a file path is required');
    return;
  }
  const handle = await open(confined.value.real, 'r');
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      sendError(res, 400, 'bad_request', 'path is not a regular file');
      return;
    }
    if (st.size > limit) {
      sendError(res, 413, 'too_large', `file is larger than ${limit} bytes`, { size: st.size, limit });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    const hash = createHash('sha256');
    const decoder = new StringDecoder('utf8');
    let sent = 0;
    const write = async (text: string) => {
      if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    };
    await write('{"content":"');
    const stream = createReadStream('', { fd: handle.fd, autoClose: false, start: 0, highWaterMark: CHUNK_BYTES });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      sent += chunk.length;
      if (sent > limit || res.destroyed) {
        stream.destroy();
        res.destroy();
        return;
      }
      hash.update(chunk);
      await write(jsonStringBody(decoder.write(chunk)));
    }
    await write(`${jsonStringBody(decoder.end())}","version":"${hash.digest('hex')}"}`);
    res.end();
  } finally {
    await handle.close();
  }
}
