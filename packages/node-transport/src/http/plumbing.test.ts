import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readBoundedBody, type BoundedBody } from './boundedBody.js';
import { refuseUpgrade } from './refuseUpgrade.js';

let server: Server | undefined;
async function stop(): Promise<void> {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
}
afterEach(stop);

async function listen(s: Server): Promise<number> {
  server = s;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as AddressInfo).port;
}

describe('refuseUpgrade', () => {
  it('answers with the status, its reason phrase and the JSON error body, then closes', async () => {
    const port = await listen(createServer().on('upgrade', (_req, socket) => refuseUpgrade(socket, 401, 'unauthorized', 'an access token is required')));
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('GET /x HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head?.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(head).toContain('Connection: close');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body ?? '')}`);
    expect(JSON.parse(body ?? '')).toEqual({ error: { code: 'unauthorized', message: 'an access token is required' } });
  });
});

describe('readBoundedBody', () => {
  /** Posts `chunks` to a server that reads with `limit` and reports what it read. */
  async function post(limit: number, chunks: string[], headers: Record<string, string> = {}): Promise<BoundedBody> {
    let read!: (body: BoundedBody) => void;
    const result = new Promise<BoundedBody>((resolve) => (read = resolve));
    const port = await listen(
      createServer((req: IncomingMessage, res) => {
        void readBoundedBody(req, limit).then((body) => {
          read(body);
          res.end();
        });
      }),
    );
    const req = request({ port, host: '127.0.0.1', method: 'POST', headers });
    req.on('error', () => undefined);
    req.on('response', (res) => res.resume());
    for (const chunk of chunks) req.write(chunk);
    req.end();
    return result;
  }

  it('returns a body within the limit as text', async () => {
    expect(await post(8, ['{"a":', '1}'])).toEqual({ ok: true, text: '{"a":1}' });
  });

  it('refuses a declared length over the limit before reading, and a streamed body once it passes the limit', async () => {
    expect(await post(4, ['12345'], { 'content-length': '5' })).toEqual({ ok: false, reason: 'too_large' });
    await stop();
    expect(await post(4, ['123', '45'])).toEqual({ ok: false, reason: 'too_large' });
  });

  it('settles as cut off when the client hangs up mid-body', async () => {
    const req = Object.assign(new PassThrough(), { headers: {} }) as unknown as IncomingMessage;
    const reading = readBoundedBody(req, 100);
    req.push('{"a"');
    req.emit('close');
    expect(await reading).toEqual({ ok: false, reason: 'cut_off' });
  });
});
