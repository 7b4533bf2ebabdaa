import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyOf, exchange } from './httpExchange.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

interface Seen {
  socket: number;
  connection: string | undefined;
}

/** A task host stand-in that numbers its connections; `handle` gets the request's index on its socket. */
async function taskHost(handle: (req: IncomingMessage, res: ServerResponse, onSocket: number) => void) {
  const seen: Seen[] = [];
  const sockets = new Map<Socket, { id: number; requests: number }>();
  server = createServer((req, res) => {
    const socket = req.socket;
    const entry = sockets.get(socket) ?? { id: sockets.size + 1, requests: 0 };
    sockets.set(socket, entry);
    entry.requests++;
    seen.push({ socket: entry.id, connection: req.headers.connection });
    handle(req, res, entry.requests);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/files`, seen };
}

const get = (url: string) => exchange(url, { method: 'GET', headers: {}, signal: new AbortController().signal });

describe('exchange over kept-alive sockets', () => {
  it('sends a request again on a new connection when the reused socket turns out closed (the idle timeout met the reuse)', async () => {
    // The host resets the second request on a connection, as a socket it closed for idleness does.
    const { url, seen } = await taskHost((_req, res, onSocket) => (onSocket === 1 ? res.end('ok') : res.socket?.destroy()));
    const first = await get(url);
    expect((await bodyOf(first.body)).toString()).toBe('ok');
    const second = await get(url);
    expect(second.status).toBe(200);
    expect((await bodyOf(second.body)).toString()).toBe('ok');
    // The reused socket 1 was reset; the retry went out once, on connection 2.
    expect(seen.map((s) => s.socket)).toEqual([1, 1, 2]);
  });

  it('does not send again what failed on a connection of its own', async () => {
    const { url, seen } = await taskHost((_req, res) => res.socket?.destroy());
    await expect(get(url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(seen).toHaveLength(1);
  });

  it('a streamed body, which cannot be sent twice, goes on a connection of its own, never a pooled one', async () => {
    const { url, seen } = await taskHost((req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await bodyOf((await get(url)).body);
    async function* body() {
      yield new TextEncoder().encode('saved text');
    }
    const put = await exchange(url, { method: 'PUT', headers: {}, body: body(), signal: new AbortController().signal });
    expect(put.status).toBe(200);
    await bodyOf(put.body);
    expect(seen).toEqual([
      { socket: 1, connection: 'keep-alive' },
      { socket: 2, connection: 'close' },
    ]);
  });
});
