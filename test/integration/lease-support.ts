/**
 * Support for the lease tests (lease-*.test.ts): the real backend in this process (startBackend,
 * optionally with a ManualClock for the broker), the built agentctl, the scriptable fake server
 * installed as `kotlin-lsp`, and a browser-like client that speaks the browser stream contract.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../apps/backend/src/config.js';
import type { Clock } from '@kandev/kit';
import { startBackend, type RunningBackend } from '../../apps/backend/src/server.js';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { authHeaders, testTokenEnv } from '../support/access.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { installFakeServer, readLog, writeScript } from '../support/fakeServer.js';
import { taskPath } from '../support/stack.js';
import { aliveWhen, childPids, descendants, eventually, isAlive, serverChildren } from './backend-support.js';

export { aliveWhen, childPids, descendants, eventually, isAlive, readLog, serverChildren };

export interface LeaseBackend {
  backend: RunningBackend;
  url: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>;
  metrics(): Promise<string>;
  close(): Promise<void>;
}

const open = new Set<LeaseBackend>();
afterAll(async () => {
  await Promise.all([...open].map((b) => b.close()));
});

export async function startLeaseBackend(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<LeaseBackend> {
  ensureBuilt('agentctl');
  ensureBuilt('fake-lsp-server');
  const home = mkdtempSync(join(tmpdir(), 'kandev-lease-home-'));
  const config = loadConfig(
    {
      KANDEV_HOME: home,
      KANDEV_PORT: '0',
      KANDEV_LOG_STDERR: '0',
      KANDEV_AGENTCTL_STOP_GRACE_MS: '10000',
      // Idle reclaim off unless a test asks for it: fake-clock jumps must not stop task hosts by the way.
      KANDEV_TASK_HOST_IDLE_MS: '0',
      ...testTokenEnv,
      ...env,
    },
    repoRoot,
  );
  if (!config.ok) throw new Error(config.error);
  const backend = await startBackend(config.value, options);
  const handle: LeaseBackend = {
    backend,
    url: backend.url,
    async api(method, path, body) {
      const response = await fetch(`${backend.url}${path}`, {
        method,
        headers: { ...authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    },
    metrics: async () => (await fetch(`${backend.url}/metrics`, { headers: authHeaders() })).text(),
    async close() {
      if (!open.delete(handle)) return;
      await backend.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
  open.add(handle);
  return handle;
}

/** One metric sample from a Prometheus text page (0 when absent). */
export function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

export interface FakeTask {
  taskId: string;
  sessionId: string;
  dir: string;
  logFile: string;
  /** The agentctl of the session (its servers are its descendants). */
  agentctlPid: number;
  uri: string;
}

/** A Local PC task whose `kotlin-lsp` is the fake server running `script`, with a started session. */
export async function fakeKotlinTask(stack: LeaseBackend, script: FakeScript, name = 'task', files: Record<string, string> = {}): Promise<FakeTask> {
  const dir = mkdtempSync(join(tmpdir(), `kandev-lease-${name}-`));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
  for (const [file, text] of Object.entries(files)) writeFileSync(join(workspace, file), text);
  const bin = join(dir, 'bin');
  installFakeServer(bin, 'kotlin-lsp');
  const logFile = join(dir, 'server.jsonl');
  const env = { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: logFile };
  const task = await stack.api('POST', '/api/tasks', { title: name, executor: 'local_pc', repositories: [{ path: workspace }], env });
  if (task.status !== 201) throw new Error(JSON.stringify(task.json));
  const taskId = task.json.id as string;
  const sessionId = await startSession(stack, taskId);
  return { taskId, sessionId, dir, logFile, agentctlPid: stack.backend.sessions.liveHost(sessionId)?.pid as number, uri: `file://${workspace}/Main.kt` };
}

export async function startSession(stack: LeaseBackend, taskId: string): Promise<string> {
  const session = await stack.api('POST', `/api/tasks/${taskId}/sessions`);
  if (session.json?.status !== 'running') throw new Error(JSON.stringify(session.json));
  return session.json.id as string;
}

export function removeTask(task: FakeTask): void {
  rmSync(task.dir, { recursive: true, force: true });
}

/** Pids of every fake server process that wrote to this log. */
export function serverPids(logFile: string): number[] {
  return [...new Set(readLog(logFile).map((l) => l.pid))];
}

/**
 * The methods the server received from its polite shutdown on: `shutdown`, then `exit` when it read
 * it before agentctl reaped it (the stream closes right after `exit`, and agentctl's SIGTERM may
 * win that race; either way the process is gone).
 */
export function shutdownTail(logFile: string): string {
  const methods = readLog(logFile)
    .map((l) => l.message.method)
    .filter((m): m is string => typeof m === 'string');
  const at = methods.indexOf('shutdown');
  return at < 0 ? '' : methods.slice(at).join(',');
}

/** The messages with `method` the server received. */
export function received(logFile: string, method: string): Array<Record<string, any>> {
  return readLog(logFile)
    .filter((l) => l.message.method === method)
    .map((l) => l.message);
}

type Frame = Record<string, any>;

/** What the web client declares that matters to these tests (real servers gate features on it). */
export const CLIENT_CAPABILITIES: Frame = {
  workspace: { configuration: true, workspaceFolders: true },
  textDocument: {
    synchronization: { dynamicRegistration: true, didSave: true },
    hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
    publishDiagnostics: { versionSupport: true, relatedInformation: true },
  },
  window: { workDoneProgress: true },
};

/**
 * A browser tab's LSP socket as the web client uses it: `/lsp/:session?language=L[&lease=ID]`.
 * Records every frame; answers forwarded server requests with null (as the web client does for
 * registrations) unless `answerServerRequests` is false.
 */
export class LeaseClient {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private nextId = 1;

  constructor(url: string, sessionId: string, language: string, hint?: string, options: { answerServerRequests?: boolean; autoPong?: boolean } = {}) {
    const query = new URLSearchParams({ language });
    if (hint) query.set('lease', hint);
    // autoPong false: a socket whose network died, which answers no ping (half-open).
    this.ws = new WebSocket(`${url.replace(/^http/, 'ws')}/lsp/${encodeURIComponent(sessionId)}?${query.toString()}`, {
      autoPong: options.autoPong ?? true,
      headers: authHeaders(),
    });
    this.ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      if (options.answerServerRequests !== false && typeof frame.method === 'string' && frame.id !== undefined) {
        this.send({ jsonrpc: '2.0', id: frame.id, result: null });
      }
      this.waiters = this.waiters.filter((w) => (w.match(frame) ? (w.resolve(frame), false) : true));
    });
    this.ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  waitFor(match: (f: Frame) => boolean): Promise<Frame> {
    const seen = this.frames.find(match);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The first `ready` frame, or the close if the connection was refused instead. */
  async readyOrClose(): Promise<{ ready?: Frame; close?: { code: number } }> {
    const outcome = await Promise.race([this.waitFor((f) => f.status === 'ready').then((ready) => ({ ready })), this.closed.then((close) => ({ close }))]);
    return outcome;
  }

  send(message: Frame): void {
    this.ws.send(JSON.stringify(message));
  }

  request(method: string, params: unknown, id: number | string = this.nextId++): Promise<Frame> {
    const reply = this.waitFor((f) => f.id === id && f.method === undefined);
    this.send({ jsonrpc: '2.0', id, method, params });
    return reply;
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  control(frame: Frame): void {
    this.send(frame);
  }

  /** ready{resumed:false} -> initialize -> initialized. */
  async initialize(capabilities: Frame = CLIENT_CAPABILITIES): Promise<{ ready: Frame; result: Frame }> {
    const ready = await this.waitFor((f) => f.status === 'ready');
    if (ready.resumed) throw new Error('expected a fresh lease, got resumed:true');
    const result = await this.request('initialize', {
      processId: null,
      rootUri: ready.workspaceUri,
      workspaceFolders: [{ uri: ready.workspaceUri, name: 'w' }],
      capabilities,
    });
    this.notify('initialized', {});
    return { ready, result };
  }

  /** ready{resumed:true} -> reopen documents -> attachment-ready -> synchronized. */
  async resume(documents: Array<{ uri: string; text: string; version: number }> = []): Promise<Frame> {
    const ready = await this.waitFor((f) => f.status === 'ready');
    if (!ready.resumed) throw new Error('expected resumed:true');
    for (const doc of documents)
      this.notify('textDocument/didOpen', { textDocument: { uri: doc.uri, languageId: 'kotlin', version: doc.version, text: doc.text } });
    this.control({ control: 'attachment-ready' });
    await this.waitFor((f) => f.status === 'synchronized');
    return ready;
  }

  /** The tab goes away: the socket closes (going away), the lease is only detached. */
  async leave(): Promise<void> {
    this.ws.close(1001);
    await this.closed;
  }
}
