import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import { WebSocketServer } from 'ws';

/**
 * The baseline a lease broker must be compared with: the thinnest useful WebSocket-to-stdio proxy
 * (one process per connection, frames copied both ways, nothing tracked).
 */
export async function startPassThroughProxy(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const decoder = new LspFrameDecoder();
    child.stdout.on('data', (chunk: Buffer) => {
      for (const body of decoder.push(chunk)) socket.send(body);
    });
    socket.on('message', (data) => child.stdin.write(encodeLspFrame(data.toString())));
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
