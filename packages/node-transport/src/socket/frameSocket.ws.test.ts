import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { FrameSocket } from './frameSocket.js';
import type { IncomingFrame } from './wsLike.js';

/** A real ws pair on loopback: what one side's FrameSocket sends, the other side's FrameSocket reads. */
async function pair(): Promise<{ client: FrameSocket; server: FrameSocket; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const accepted = new Promise<WebSocket>((resolve) => wss.once('connection', resolve));
  const ws = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const server = new FrameSocket(await accepted);
  return {
    client: new FrameSocket(ws),
    server,
    close: async () => {
      ws.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

describe('FrameSocket pieces over a real WebSocket', () => {
  it('the peer reads the pieces as one text message, byte for byte, and the messages around it stay whole and in order', async () => {
    const { client, server, close } = await pair();
    try {
      const got: IncomingFrame[] = [];
      const all = new Promise<void>((resolve) =>
        server.onText((frame) => {
          got.push(frame);
          if (got.length === 3) resolve();
        }),
      );
      const big = 'é'.repeat(100_000);
      client.send('{"before":1}');
      client.sendPieces([Buffer.from('{"jsonrpc":"2.0","id":'), Buffer.from('42'), Buffer.from(`,"result":"${big}"}`)]);
      client.send('{"after":1}');
      await all;
      expect(got.map((f) => ('text' in f ? f.text : '<binary>'))).toEqual(['{"before":1}', `{"jsonrpc":"2.0","id":42,"result":"${big}"}`, '{"after":1}']);
    } finally {
      await close();
    }
  });
});
