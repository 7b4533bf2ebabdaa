import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import { WebSocketServer } from 'ws';

/**
 * A 1-hop baseline a lease broker must be compared with: the thinnest useful WebSocket-to-stdio proxy
 * (one process per connection, frames copied both ways, nothing tracked).
 */
export async function startPassThroughProxy(command: string, args: string[], env: NodeJS.ProcessEnv, mode: 'raw' | 'json' = 'raw'): Promise<{ url: string; close(): Promise<void> }> {
  // 'json' parses every message and encodes it again on each side, as a proxy that looks into
  // messages must; 'raw' only reframes (Content-Length <-> WebSocket frame).
  const relay = mode === 'json' ? (text: string) => JSON.stringify(JSON.parse(text)) : (text: string) => text;
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const decoder = new LspFrameDecoder();
    child.stdout.on('data', (chunk: Buffer) => {
      for (const body of decoder.push(chunk)) socket.send(relay(body));
    });
    socket.on('message', (data) => child.stdin.write(encodeLspFrame(relay(data.toString()))));
    socket.on('close', () => child.kill('SIGTERM'));
    child.on('exit', () => socket.close(4006));
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => {
      for (const client of server.clients) client.terminate();
      server.close(() => resolve());
    }),
  };
}
