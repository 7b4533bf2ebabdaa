import WebSocket from 'ws';

type Message = Record<string, any>;

/** A browser-like LSP client over one WebSocket (JSON text frames), for the benchmarks. */
export class WsLspClient {
  private nextId = 1;
  private waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];
  readonly received: Message[] = [];
  closed: Promise<number>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message;
      this.received.push(message);
      this.waiters = this.waiters.filter((w) => (w.match(message) ? (w.resolve(message), false) : true));
    });
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsLspClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new WsLspClient(socket)));
      socket.once('error', reject);
    });
  }

  waitFor(match: (m: Message) => boolean): Promise<Message> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  send(message: Message): void {
    this.socket.send(JSON.stringify(message));
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    // An error reply fails the bench action that asked, rather than being measured as an answer.
    const reply = this.waitFor((m) => m.id === id && m.method === undefined).then((m) => {
      if (m.error) throw new Error(`${method} failed: ${JSON.stringify(m.error).slice(0, 200)}`);
      return m;
    });
    this.send({ jsonrpc: '2.0', id, method, params });
    return reply;
  }

  close(): Promise<number> {
    this.socket.close(1000);
    return this.closed;
  }
}
