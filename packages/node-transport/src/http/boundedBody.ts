import type { IncomingMessage } from 'node:http';

export type BoundedBody =
  | { ok: true; text: string }
  /** too_large: over the limit (declared or read); failed: a read error; cut_off: the client hung up mid-body. */
  | { ok: false; reason: 'too_large' | 'failed' | 'cut_off' };

/**
 * Reads a request body of at most `limit` bytes. A declared Content-Length over the limit is
 * refused before reading; otherwise the limit is checked while reading, so an oversized body is
 * never buffered. The rest of a refused body is drained (dropped), so the socket can still carry
 * the answer. A client that hangs up mid-body settles the read too: no handler waits forever.
 */
export function readBoundedBody(req: IncomingMessage, limit: number): Promise<BoundedBody> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (result: BoundedBody): void => {
      if (done) return;
      done = true;
      resolve(result);
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      finish({ ok: false, reason: 'too_large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => finish({ ok: false, reason: 'failed' }));
    req.on('close', () => finish({ ok: false, reason: 'cut_off' }));
  });
}
