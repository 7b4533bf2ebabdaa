/**
 * One editor tab of the soak: a browser-like LSP WebSocket to the backend that answers what a real
 * server asks of its client (configuration, registrations, progress tokens), as the web app does,
 * and keeps no history beyond the control frames, so a 30-minute tab costs the bench little.
 */
import WebSocket from 'ws';

type Message = Record<string, any>;

interface Waiter {
  match: (m: Message) => boolean;
  resolve: (m: Message) => void;
}

export class SoakTab {
  private nextId = 1;
  private readonly replies = new Map<number, (m: Message) => void>();
  private waiters: Waiter[] = [];
  /** The control frames (`status`, `control`) seen so far, in order. */
  readonly statuses: Message[] = [];
  readonly closed: Promise<number>;
  version = 1;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(JSON.parse(data.toString()) as Message));
    this.closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
  }

  static open(url: string, headers: Record<string, string>): Promise<SoakTab> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new SoakTab(socket)));
      socket.once('error', reject);
    });
  }

  private receive(message: Message): void {
    if (message.jsonrpc === undefined) this.statuses.push(message);
    else if (message.method !== undefined && message.id !== undefined) this.answer(message);
    else if (message.method === undefined && typeof message.id === 'number') {
      this.replies.get(message.id)?.(message);
      this.replies.delete(message.id);
    }
    this.waiters = this.waiters.filter((w) => (w.match(message) ? (w.resolve(message), false) : true));
  }

  /** What the web app's client answers: no settings of its own, everything else accepted. */
  private answer(request: Message): void {
    const items = (request.params as { items?: unknown[] } | undefined)?.items;
    const result = request.method === 'workspace/configuration' ? (items ?? []).map(() => null) : null;
    this.send({ jsonrpc: '2.0', id: request.id, result });
  }

  /** The next message (from now on) that matches. */
  next(match: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** A control frame already seen or still to come. */
  status(match: (m: Message) => boolean): Promise<Message> {
    const seen = this.statuses.find(match);
    return seen ? Promise.resolve(seen) : this.next((m) => m.jsonrpc === undefined && match(m));
  }

  send(message: Message): void {
    this.socket.send(JSON.stringify(message));
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    // An error reply fails the step that asked: a server that answers every hover with an error
    // must show in the soak's errors, not pass as an answered request.
    const reply = new Promise<Message>((resolve, reject) =>
      this.replies.set(id, (m) => (m.error ? reject(new Error(`${method} failed: ${JSON.stringify(m.error).slice(0, 200)}`)) : resolve(m))),
    );
    this.send({ jsonrpc: '2.0', id, method, params });
    return reply;
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** A page reload: the socket closes cleanly and the lease waits for the page to come back. */
  close(): Promise<number> {
    this.socket.close(1000);
    return this.closed;
  }

  /** A network cut: the connection is gone with no close handshake. */
  cut(): void {
    this.socket.terminate();
  }
}
