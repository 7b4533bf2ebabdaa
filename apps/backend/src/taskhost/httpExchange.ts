import { Agent, request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * One HTTP request to a task host, over node:http rather than fetch. Every started session's
 * agentctl listens on a new port, and the fetch of Node 20 (undici 6) keeps a connection pool per
 * origin for the life of the process, about 27 KiB each (measured by the soak's heap snapshots and
 * agentctlClient.test.ts). An http.Agent forgets a host as soon as its last socket is closed.
 */
const taskHostAgent = new Agent({ keepAlive: true });

export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  /** A whole body, or one passed on as it is produced (a save), never held here. */
  body?: string | AsyncIterable<Uint8Array>;
  /** Aborting breaks the request off, whether it waits for the answer or its body is being read. */
  signal: AbortSignal;
}

export interface Exchange {
  status: number;
  contentType: string;
  /** The answer's body as it arrives; it errors if the signal aborts while it is being read. */
  body: IncomingMessage;
}

/** Why an exchange failed: the abort's reason when it was aborted, else the socket's error. */
export function exchangeFailure(err: unknown, signal: AbortSignal): string {
  const reason = signal.aborted ? (signal.reason as unknown) : err;
  const message = reason instanceof Error || reason instanceof DOMException ? reason.message : 'The operation was aborted';
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

/**
 * Errors that mean a kept-alive socket was already closed by agentctl when the request went out
 * (its idle timeout met our reuse; on a busy backend the FIN is read only after the socket was
 * handed to a new request). agentctl never read such a request, so it can be sent again.
 */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** Resolves with the answer's status and headers; a redirect is refused, as fetch's redirect: 'error' did. */
export async function exchange(url: string, init: ExchangeInit): Promise<Exchange> {
  // A streamed body cannot be sent twice, so it never rides on a socket that may be stale.
  if (init.body !== undefined && typeof init.body !== 'string') return attempt(url, init, 'fresh');
  try {
    return await attempt(url, init, 'pooled');
  } catch (err) {
    if (!(err instanceof Error) || !staleSocketFailures.has(err) || init.signal.aborted) throw err;
    return attempt(url, init, 'fresh');
  }
}

/** Failures on a reused socket before any answer: agentctl never saw those requests. */
const staleSocketFailures = new WeakSet<Error>();

function attempt(url: string, init: ExchangeInit, socket: 'pooled' | 'fresh'): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    if (init.signal.aborted) {
      reject(new Error('aborted before it was sent'));
      return;
    }
    // agent: false is one connection of its own, closed after the answer.
    const req = request(url, { method: init.method, headers: init.headers, agent: socket === 'pooled' ? taskHostAgent : false });
    let answered = false;
    const onAbort = () => req.destroy(new Error('aborted'));
    init.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: Error & { code?: string }) => {
      init.signal.removeEventListener('abort', onAbort);
      if (req.reusedSocket && !answered && err.code !== undefined && STALE_SOCKET_CODES.has(err.code)) staleSocketFailures.add(err);
      reject(err);
    });
    req.on('response', (res) => {
      answered = true;
      res.on('close', () => init.signal.removeEventListener('abort', onAbort));
      if (res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400) {
        res.destroy();
        reject(new Error(`redirect refused (HTTP ${res.statusCode})`));
        return;
      }
      resolve({ status: res.statusCode ?? 502, contentType: res.headers['content-type'] ?? 'application/json', body: res });
    });
    if (init.body === undefined) req.end();
    else if (typeof init.body === 'string') req.end(init.body);
    else {
      pipeline(Readable.from(init.body, { objectMode: false }), req).catch((err: unknown) => {
        // A body broken off before the answer breaks the request off (agentctl drops what it
        // staged); once agentctl has answered (a 413 before the end), its answer still stands.
        if (!answered) req.destroy(err instanceof Error ? err : new Error(String(err)));
      });
    }
  });
}

/** The whole body of an answer. */
export async function bodyOf(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
