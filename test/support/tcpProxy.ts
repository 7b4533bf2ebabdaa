import { connect, createServer, type Socket } from 'node:net';

/** One connection accepted by the proxy and its twin towards the target. */
export interface ProxiedConnection {
  /** The first line the client sent (`GET /lsp/... HTTP/1.1`), once it arrived. */
  requestLine: string | undefined;
  /** Whether that first request asked for a WebSocket upgrade. */
  upgrade: boolean;
  client: Socket;
  upstream: Socket;
  /** Set by `cut`: nothing passes any more in either direction. */
  blackholed: boolean;
}

export interface TcpProxy {
  url: string;
  connections: ProxiedConnection[];
  /**
   * A transport loss, not a WebSocket close: the client's socket is reset (no close frame, no FIN),
   * and the target's socket stays open but silent, so the target sees a half-open peer that never
   * answers its pings, as after a dead network.
   */
  cut(connection: ProxiedConnection): void;
  /** Closes the listener and destroys every socket, cut or not. */
  close(): Promise<void>;
}

/** A byte-level TCP proxy on 127.0.0.1 (ephemeral port) to `target` (`http://127.0.0.1:PORT`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const connections: ProxiedConnection[] = [];
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    const link: ProxiedConnection = { requestLine: undefined, upgrade: false, client, upstream, blackholed: false };
    connections.push(link);
    let head = '';
    // Errors are the point of this proxy (resets, a target that went away): they end the pair.
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
    client.on('data', (chunk: Buffer) => {
      if (link.requestLine === undefined) {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end >= 0 || head.length > 16_384) {
          link.requestLine = head.split('\r\n', 1)[0];
          link.upgrade = /^upgrade:\s*websocket\s*$/im.test(head.slice(0, end >= 0 ? end : head.length));
        }
      }
      if (!link.blackholed) upstream.write(chunk);
    });
    // Data read from a blackholed socket is dropped, so the target's writes never back up: it
    // learns of the loss from its pings alone, as it would behind a dead network.
    upstream.on('data', (chunk: Buffer) => {
      if (!link.blackholed) client.write(chunk);
    });
    client.on('close', () => {
      if (!link.blackholed) upstream.destroy();
    });
    upstream.on('close', () => {
      if (!link.blackholed) client.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tcp proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections,
    cut(connection) {
      connection.blackholed = true;
      connection.client.resetAndDestroy();
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const c of connections) {
        c.client.destroy();
        c.upstream.destroy();
      }
      await closed;
    },
  };
}
