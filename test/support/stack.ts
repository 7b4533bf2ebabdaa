import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ExecutorKind, Session, Task } from '@kandev/protocol';
import { authHeaders, testTokenEnv } from './access.js';
import { ensureBuilt, repoRoot, webTestDist } from './build.js';

/**
 * The backend as users run it: the built bundle, its own KANDEV_HOME, an ephemeral port, and the
 * tests' fixed access token (support/access.ts), which `api()` sends as a bearer header.
 */
export interface RunningStack {
  url: string;
  home: string;
  process: ChildProcess;
  api<T = unknown>(path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  createTask(input: { title?: string; executor?: ExecutorKind; workspace: string; env?: Record<string, string> }): Promise<Task>;
  startSession(taskId: string): Promise<Session>;
  stop(): Promise<void>;
}

export const bundledServersPath = join(repoRoot, 'node_modules/.bin');

/** A fresh copy of the demo workspace, so tests may edit it. */
export function copyDemoWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-ws-'));
  cpSync(join(repoRoot, 'demo/workspace'), dir, { recursive: true });
  return dir;
}

/** PATH for a task: extra bin folders first, then the bundled npm servers, then the system. */
export function taskPath(...extra: string[]): string {
  return [...extra, bundledServersPath, process.env.PATH ?? '/usr/bin:/bin'].join(delimiter);
}

/**
 * `nodeArgs` go to the backend's node before its bundle (the benchmarks' `--cpu-prof`). `checkout`
 * runs the backend (and, through it, agentctl) another checkout built: a changed copy of this one
 * (support/scratchCheckout.ts), whose builds the caller made.
 */
export async function startStack(env: Record<string, string> = {}, options: { nodeArgs?: string[]; checkout?: string } = {}): Promise<RunningStack> {
  if (!options.checkout) {
    ensureBuilt('agentctl');
    ensureBuilt('backend');
  }
  const home = mkdtempSync(join(tmpdir(), 'kandev-home-'));
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(options.checkout ?? repoRoot, 'apps/backend/dist/backend.mjs')], {
    // The web app's test build unless a suite names another (a snapshot, or the production bundle).
    env: {
      ...process.env,
      KANDEV_HOME: home,
      KANDEV_PORT: '0',
      KANDEV_HOST: '127.0.0.1',
      KANDEV_WEB_DIR: join(options.checkout ?? repoRoot, webTestDist),
      ...testTokenEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+)\/?/.exec(line);
      if (m) resolve(m[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`backend exited (${code}) before listening: ${stderr.join('').slice(-2000)}`)));
  });

  async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const res = await fetch(`${url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...authHeaders(env.KANDEV_TOKEN), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} -> ${res.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    url,
    home,
    process: child,
    api,
    createTask: ({ title = 'Test task', executor = 'local_pc', workspace, env: taskEnv = {} }) =>
      api<Task>('/api/tasks', { body: { title, executor, repositories: [{ path: workspace }], env: { PATH: taskPath(), ...taskEnv } } }),
    startSession: (taskId) => api<Session>(`/api/tasks/${taskId}/sessions`, { method: 'POST', body: {} }),
    async stop() {
      // A process ended by a signal has a signalCode and no exitCode: it is gone all the same.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}
