/**
 * Support for the backend integration tests (backend-*.test.ts): the real backend in this process
 * (startBackend), with a temporary KANDEV_HOME, port 0, and the agentctl bundle it starts by
 * default (built when its sources are newer; through tsx every session compiled agentctl again).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../apps/backend/src/config.js';
import { startBackend, type RunningBackend } from '../../apps/backend/src/server.js';
import { authHeaders, testTokenEnv } from '../support/access.js';
import { ensureBuilt } from '../support/build.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** A task PATH with the repository's typescript-language-server and pyright first. */
export const bundledServersPath = [join(repoRoot, 'node_modules/.bin'), process.env.PATH ?? '/usr/bin:/bin'].join(delimiter);

export interface TestBackend {
  backend: RunningBackend;
  home: string;
  url: string;
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

/**
 * Backends still open when a test file ends: a timed-out test abandons its `finally`, and its
 * agentctl children would outlive the test worker. Closing them here reaps them.
 */
const openBackends = new Set<TestBackend>();
afterAll(async () => {
  await Promise.all([...openBackends].map((b) => b.close()));
});

export async function startTestBackend(env: Record<string, string> = {}): Promise<TestBackend> {
  ensureBuilt('agentctl');
  const home = mkdtempSync(join(tmpdir(), 'kandev-home-'));
  const config = loadConfig(
    {
      KANDEV_HOME: home,
      KANDEV_PORT: '0',
      KANDEV_LOG_STDERR: '0',
      KANDEV_AGENTCTL_STOP_GRACE_MS: '15000',
      ...testTokenEnv,
      ...env,
    },
    repoRoot,
  );
  if (!config.ok) throw new Error(config.error);
  const backend = await startBackend(config.value);
  const handle: TestBackend = {
    backend,
    home,
    url: backend.url,
    async api(method, path, body, extraHeaders = {}) {
      // The tests' token unless a test passes its own authorization (or '' for none).
      const headers = Object.fromEntries(Object.entries({ ...authHeaders(env.KANDEV_TOKEN), ...extraHeaders }).filter(([, v]) => v !== ''));
      const response = await fetch(`${backend.url}${path}`, {
        method,
        headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    },
    async close() {
      openBackends.delete(handle);
      await backend.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
  openBackends.add(handle);
  return handle;
}

/** Pids of the live (non-zombie) children of `ppid` whose command line contains `needle`. */
export function childPids(ppid: number, needle = ''): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (!stat || stat.ppid !== ppid || stat.state === 'Z') continue;
    if (needle && !cmdline(Number(entry)).includes(needle)) continue;
    out.push(Number(entry));
  }
  return out;
}

/** The children of an agentctl that are language servers: every child but its watchdog. */
export function serverChildren(agentctlPid: number): number[] {
  return childPids(agentctlPid).filter((child) => !isWatchdog(child));
}

/**
 * Every live descendant of `pid`, except agentctl's watchdog: agentctl's own guard that outlives
 * no one (it exits with agentctl), not part of any language-server tree.
 */
export function descendants(pid: number): number[] {
  const children = serverRoots(pid);
  return [...children, ...children.flatMap((c) => descendants(c))];
}

/** agentctl's direct children that are language servers (or their sandbox): one per stream. */
export function serverRoots(agentctlPid: number): number[] {
  return childPids(agentctlPid).filter((child) => !isWatchdog(child));
}

function isWatchdog(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').includes('KANDEV_WATCHDOG_INSTANCE=');
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: state as string, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/**
 * Which of `pids` run AT THE MOMENT the first frame matching `match` arrives: checked synchronously
 * in the socket's message handler, so nothing can die between the frame and the check.
 */
export function aliveWhen(client: { ws: WebSocket }, match: (f: Record<string, any>) => boolean, pids: () => number[]): Promise<number[]> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      if (!match(JSON.parse(data.toString()) as Record<string, any>)) return;
      client.ws.off('message', onMessage);
      resolve(pids().filter(isAlive));
    };
    client.ws.on('message', onMessage);
  });
}

/** Polls a condition (processes exit asynchronously); never asserts how long it took. */
export async function eventually(check: () => boolean, attempts = 400): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

type Frame = Record<string, any>;

/** A browser-like LSP client of the backend gateway: records frames and the close. */
export class BrowserClient {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<boolean>;
  refusedStatus: number | undefined;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private nextId = 1;

  /** `token`: the access token sent as a bearer header (the tests' one by default, null for none). */
  constructor(url: string, options: { origin?: string; token?: string | null } = {}) {
    const auth = options.token === null ? {} : authHeaders(options.token);
    this.ws = new WebSocket(url, { headers: { ...auth, ...(options.origin ? { origin: options.origin } : {}) }, maxPayload: 64 * 1024 * 1024 });
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
    });
    this.ws.on('unexpected-response', (_req, res) => {
      this.refusedStatus = res.statusCode;
      res.resume();
      this.ws.terminate();
    });
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve) => {
      this.ws.once('open', () => resolve(true));
      this.ws.once('close', () => resolve(false));
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static open(backendUrl: string, sessionId: string, language: string, options: { origin?: string; token?: string | null } = {}): BrowserClient {
    return new BrowserClient(`${backendUrl.replace(/^http/, 'ws')}/lsp/${encodeURIComponent(sessionId)}?language=${encodeURIComponent(language)}`, options);
  }

  waitFor(match: (f: Frame) => boolean): Promise<Frame> {
    const seen = this.frames.find(match);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  request(method: string, params: unknown): Promise<Frame> {
    const id = this.nextId++;
    const reply = this.waitFor((f) => f.id === id && f.method === undefined);
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return reply;
  }

  notify(method: string, params: unknown): void {
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }
}
