import { spawn, type ChildProcess } from 'node:child_process';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import WebSocket from 'ws';

type Message = Record<string, any>;

/**
 * A JSON-RPC peer for the benchmarks, over stdio or one WebSocket. Unlike the test clients it keeps
 * nothing it received: a million 1 MB echoes must cost the client nothing but parsing.
 */
export abstract class BenchPeer {
  private nextId = 1;
  private readonly pending = new Map<number, (m: Message) => void>();
  private notificationListener: ((m: Message) => void) | undefined;
  private frameListener: ((m: Message) => void) | undefined;

  protected abstract write(text: string): void;
  abstract close(): Promise<void>;

  protected receive(text: string): void {
    const message = JSON.parse(text) as Message;
    if (message.jsonrpc === undefined) {
      this.frameListener?.(message);
      return;
    }
    if (message.method === undefined && typeof message.id === 'number') {
      const resolve = this.pending.get(message.id);
      this.pending.delete(message.id);
      resolve?.(message);
    } else if (message.id === undefined) {
      this.notificationListener?.(message);
    }
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    const reply = new Promise<Message>((resolve) => this.pending.set(id, resolve));
    this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return reply;
  }

  notify(method: string, params: unknown): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  send(frame: Message): void {
    this.write(JSON.stringify(frame));
  }

  onNotification(listener: ((m: Message) => void) | undefined): void {
    this.notificationListener = listener;
  }

  /** Kandev's own frames (`status`), which carry no `jsonrpc`. */
  nextFrame(match: (m: Message) => boolean): Promise<Message> {
    return new Promise((resolve) => {
      this.frameListener = (m) => {
        if (match(m)) {
          this.frameListener = undefined;
          resolve(m);
        }
      };
    });
  }

  async initialize(rootUri: string | null = null): Promise<Message> {
    const workspaceFolders = rootUri ? [{ uri: rootUri, name: 'workspace' }] : null;
    const result = await this.request('initialize', { processId: null, rootUri, workspaceFolders, capabilities: {} });
    this.notify('initialized', {});
    return result;
  }
}

export class StdioPeer extends BenchPeer {
  readonly child: ChildProcess;

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv) {
    super();
    this.child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
    const decoder = new LspFrameDecoder();
    this.child.stdout!.on('data', (chunk: Buffer) => {
      for (const body of decoder.push(chunk)) this.receive(body);
    });
  }

  protected write(text: string): void {
    this.child.stdin!.write(encodeLspFrame(text));
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

export class WsPeer extends BenchPeer {
  private constructor(private readonly socket: WebSocket) {
    super();
    socket.on('message', (data) => this.receive(data.toString()));
  }

  /** Opens the socket; with `awaitReady`, resolves once Kandev's `ready` frame arrived, with it. */
  static async open(url: string, headers: Record<string, string> = {}, awaitReady = false): Promise<{ peer: WsPeer; ready: Message | undefined }> {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
    const peer = new WsPeer(socket);
    const ready = awaitReady ? peer.nextFrame((m) => m.status === 'ready') : Promise.resolve(undefined);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return { peer, ready: await ready };
  }

  protected write(text: string): void {
    this.socket.send(text);
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close(1000);
    return closed;
  }
}
