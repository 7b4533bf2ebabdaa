import { spawn, type ChildProcess } from 'node:child_process';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';

type Message = Record<string, any>;

/** A minimal LSP client over a child's stdio: for tests and benchmarks that talk to a server directly. */
export class StdioLspClient {
  readonly child: ChildProcess;
  readonly received: Message[] = [];
  private nextId = 1;
  private waiters: Array<{ match: (m: Message) => boolean; resolve: (m: Message) => void }> = [];

  /** Answers the server's own requests (workspace/configuration, ...); unset, they stay unanswered. */
  onServerRequest?: (method: string, params: any) => unknown;

  constructor(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
    this.child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const decoder = new LspFrameDecoder();
    this.child.stdout!.on('data', (chunk: Buffer) => {
      for (const body of decoder.push(chunk)) this.onMessage(JSON.parse(body) as Message);
    });
  }

  private onMessage(message: Message): void {
    this.received.push(message);
    if (this.onServerRequest && typeof message.method === 'string' && message.id !== undefined)
      this.send({ id: message.id, result: this.onServerRequest(message.method, message.params) ?? null });
    this.waiters = this.waiters.filter((w) => {
      if (!w.match(message)) return true;
      w.resolve(message);
      return false;
    });
  }

  send(message: Message): void {
    this.child.stdin!.write(encodeLspFrame(JSON.stringify({ jsonrpc: '2.0', ...message })));
  }

  request(method: string, params: unknown): Promise<Message> {
    const id = this.nextId++;
    const reply = this.waitFor((m) => m.id === id && !m.method);
    this.send({ id, method, params });
    return reply;
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  waitFor(match: (m: Message) => boolean): Promise<Message> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  exited(): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }
}
