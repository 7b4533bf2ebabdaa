/**
 * Test support: runs the real agentctl (`node --import tsx apps/agentctl/src/main.ts`) against a
 * workspace and talks to it over HTTP and WebSocket, as the backend does. Not part of the bundle.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CloseCode, TASK_HOST_PATHS, agentctlLaunchEnv, parseListeningLine } from '@kandev/protocol';
import WebSocket from 'ws';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const repoBin = join(repoRoot, 'node_modules/.bin');

export interface LogLine {
  event: string;
  level: string;
  [field: string]: unknown;
}

export interface StartOptions {
  workspace: string;
  /** The task environment (PATH, HOME, ...); AGENTCTL_* are added by the harness. */
  env: Record<string, string>;
  token?: string;
  repos?: string[];
}

export interface RunningAgentctl {
  child: ChildProcess;
  port: number;
  token: string;
  logs: LogLine[];
  /**
   * The first log line (already read or still to come) that matches: agentctl writes its log
   * asynchronously, so a line may arrive after the event it tells of.
   */
  nextLog(match: (line: LogLine) => boolean): Promise<LogLine>;
  /** Authenticated fetch of an agentctl path (`/api/v1/...`). */
  api(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  openStream(query: string, token?: string | null): LspTestClient;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited(): Promise<number | null>;
}

/** A task PATH with the repo's language servers and this node, and nothing of the workspace. */
export function taskPath(...extraDirs: string[]): string {
  return [...extraDirs, repoBin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
}

export async function startAgentctl(options: StartOptions): Promise<RunningAgentctl> {
  const token = options.token ?? `test-token-${Math.random().toString(36).slice(2)}`;
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/agentctl/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...options.env,
      ...agentctlLaunchEnv({ token, workspacePath: options.workspace, repoSubpaths: options.repos ?? [], host: '127.0.0.1', port: 0, exitOnStdinClose: false }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  const record = (line: LogLine) => {
    logs.push(line);
    for (const waiter of waiters) {
      if (!waiter.match(line)) continue;
      waiters.delete(waiter);
      waiter.resolve(line);
    }
  };
  let stderrRest = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    const lines = (stderrRest + chunk).split('\n');
    stderrRest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        record(JSON.parse(line) as LogLine);
      } catch {
        record({ event: 'unparsed', level: 'error', line });
      }
    }
  });
  // 'close', not 'exit': by then every log line agentctl wrote to stderr has been read.
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) {
        const listening = parseListeningLine(line);
        if (listening !== undefined) resolve(listening);
        else reject(new Error(`unexpected stdout: ${line}`));
      }
    });
    void exit.then((code) => reject(new Error(`agentctl exited with ${code}: ${JSON.stringify(logs.slice(-5))}`)));
  });
  return {
    child,
    port,
    token,
    logs,
    nextLog(match) {
      const seen = logs.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.add({ match, resolve }));
    },
    api(path, init = {}) {
      const { token: override, ...rest } = init;
      const headers = new Headers(rest.headers);
      const used = override === undefined ? token : override;
      if (used !== null) headers.set('authorization', `Bearer ${used}`);
      return fetch(`http://127.0.0.1:${port}${path}`, { ...rest, headers });
    },
    openStream(query, override) {
      const used = override === undefined ? token : override;
      return new LspTestClient(`ws://127.0.0.1:${port}${TASK_HOST_PATHS.lspStream}?${query}`, used);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
    exited: () => exit,
  };
}

export interface CloseInfo {
  code: number;
  reason: string;
}

type Frame = Record<string, unknown>;

/** A WebSocket client that records every frame and the close, with waits by predicate. */
export class LspTestClient {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<CloseInfo>;
  readonly opened: Promise<boolean>;
  /** HTTP status when the upgrade was refused. */
  refusedStatus: number | undefined;
  private waiters: Array<{ match: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  private nextId = 1;

  constructor(url: string, token: string | null) {
    this.ws = new WebSocket(url, { headers: token === null ? {} : { authorization: `Bearer ${token}` }, maxPayload: 64 * 1024 * 1024 });
    this.ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
    // A refused upgrade surfaces as an error "Unexpected server response: <status>", then close.
    this.ws.on('error', (err) => {
      const status = /Unexpected server response: (\d+)/.exec(err.message);
      if (status) this.refusedStatus = Number(status[1]);
    });
    this.opened = new Promise((resolve) => {
      this.ws.once('open', () => resolve(true));
      this.ws.once('close', () => resolve(false));
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  waitFor(match: (f: Frame) => boolean): Promise<Frame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  status(status: string): Promise<Frame> {
    return this.waitFor((f) => f.status === status);
  }

  send(message: Frame): void {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  request(method: string, params: unknown): Promise<Frame> {
    const id = this.nextId++;
    const reply = this.waitFor((f) => f.id === id && f.method === undefined);
    this.send({ id, method, params });
    return reply;
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  close(): void {
    this.ws.close(CloseCode.Normal);
  }
}

/** Pids that are alive: present in /proc and not zombies. */
export async function alivePids(pids: readonly number[]): Promise<number[]> {
  const { readFile } = await import('node:fs/promises');
  const out: number[] = [];
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z' && state !== 'X') out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}
