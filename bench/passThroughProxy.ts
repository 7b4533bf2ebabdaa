import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import WebSocket, { WebSocketServer } from 'ws';

/**
 * A 1-hop baseline a lease broker must be compared with: the thinnest useful WebSocket-to-stdio proxy
 * (one process per connection, frames copied both ways, nothing tracked). It runs in a process of
 * its own, like any real proxy (and like the backend and agentctl): inside the bench client's
 * process it would pay no process hop at all, and the comparison would flatter it.
 */
export type ProxyMode = 'raw' | 'json' | 'forward';

/**
 * `raw`/`json`: WebSocket to a child's stdio. `forward`: WebSocket to another WebSocket (`command` is
 * its URL), frames copied as they are: chained in front of a `raw` proxy it makes two raw process
 * hops, the product's hop count (browser -> backend -> agentctl -> stdio) with none of its work.
 */
export async function startPassThroughProxy(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  mode: ProxyMode = 'raw',
): Promise<{ url: string; close(): Promise<void> }> {
  const proxy = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), mode, command, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

/** Copies frames both ways between a client socket and a new socket to `upstreamUrl`. */
function forward(socket: WebSocket, upstreamUrl: string): void {
  // Unmasked, as the product's backend -> agentctl link is (a zero mask: neither side loops over
  // the bytes), so this chain is the floor of two hops, not a slower stand-in.
  const upstream = new WebSocket(upstreamUrl, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024, generateMask: (mask: Buffer) => void mask.fill(0) });
  const held: string[] = [];
  upstream.on('open', () => {
    for (const text of held.splice(0)) upstream.send(text);
  });
  upstream.on('message', (data) => socket.send(data.toString()));
  socket.on('message', (data) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data.toString());
    else held.push(data.toString());
  });
  socket.on('close', () => upstream.close());
  upstream.on('close', (code) => socket.close(code === 1005 ? 1000 : code));
}

/** The proxy process: `passThroughProxy.ts raw|json|forward <command|url> [args...]`; prints its port. */
async function serve(mode: ProxyMode, command: string, args: string[]): Promise<void> {
  // 'json' parses every message and encodes it again on each side, as a proxy that looks into
  // messages must; 'raw' only reframes (Content-Length <-> WebSocket frame).
  const relay = mode === 'json' ? (text: string) => JSON.stringify(JSON.parse(text)) : (text: string) => text;
  const children = new Set<ReturnType<typeof spawn>>();
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * 1024 * 1024 });
  server.on('connection', (socket) => {
    if (mode === 'forward') {
      forward(socket, command);
      return;
    }
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
  if ((mode !== 'raw' && mode !== 'json' && mode !== 'forward') || !command)
    throw new Error('usage: passThroughProxy.ts raw|json|forward <command|url> [args...]');
  void serve(mode, command, args);
}
