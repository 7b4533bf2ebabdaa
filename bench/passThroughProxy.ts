import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import { WebSocketServer } from 'ws';

/**
 * A 1-hop baseline a lease broker must be compared with: the thinnest useful WebSocket-to-stdio proxy
 * (one process per connection, frames copied both ways, nothing tracked). It runs in a process of
 * its own, like any real proxy (and like the backend and agentctl): inside the bench client's
 * process it would pay no process hop at all, and the comparison would flatter it.
 */
export async function startPassThroughProxy(command: string, args: string[], env: NodeJS.ProcessEnv, mode: 'raw' | 'json' = 'raw'): Promise<{ url: string; close(): Promise<void> }> {
  const proxy = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mode, command, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => proxy.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: proxy.stdout }).once('line', (line) => resolve(Number(line)));
    proxy.once('exit', (code) => reject(new Error(`pass-through proxy exited (${code}) before listening`)));
  });
  return {
    url: `ws://127.0.0.1:${port}`,
    close: async () => {
      proxy.kill('SIGTERM');
      await exited;
    },
  };
}

/** The proxy process: `passThroughProxy.ts raw|json <command> [args...]`; prints its port. */
async function serve(mode: 'raw' | 'json', command: string, args: string[]): Promise<void> {
  // 'json' parses every message and encodes it again on each side, as a proxy that looks into
  // messages must; 'raw' only reframes (Content-Length <-> WebSocket frame).
  const relay = mode === 'json' ? (text: string) => JSON.stringify(JSON.parse(text)) : (text: string) => text;
  const children = new Set<ReturnType<typeof spawn>>();
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 * 1024 });
  server.on('connection', (socket) => {
    const child = spawn(command, args, { env: process.env, stdio: ['pipe', 'pipe', 'ignore'] });
    children.add(child);
    const decoder = new LspFrameDecoder();
    child.stdout.on('data', (chunk: Buffer) => {
      for (const body of decoder.push(chunk)) socket.send(relay(body));
    });
    socket.on('message', (data) => child.stdin.write(encodeLspFrame(relay(data.toString()))));
    socket.on('close', () => child.kill('SIGTERM'));
    child.on('exit', () => {
      children.delete(child);
      socket.close(4006);
    });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  process.on('SIGTERM', () => {
    for (const child of children) child.kill('SIGTERM');
    for (const client of server.clients) client.terminate();
    server.close(() => process.exit(0));
  });
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, command, ...args] = process.argv.slice(2);
  if ((mode !== 'raw' && mode !== 'json') || !command) throw new Error('usage: passThroughProxy.ts raw|json <command> [args...]');
  void serve(mode, command, args);
}
