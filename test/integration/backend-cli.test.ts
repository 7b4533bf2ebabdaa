import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { LOG_EVENTS } from '../../apps/backend/src/base/log.js';
import { authHeaders, testTokenEnv } from '../support/access.js';
import { ensureBuilt } from '../support/build.js';
import { childPids, eventually, isAlive, repoRoot } from './backend-support.js';

/**
 * The backend as a person starts it (`npm start`): the built bundle with flags, env config, stdout
 * banner, SIGTERM, and the agentctl bundle it starts by default. Run from the bundles, not through
 * tsx: every start here would otherwise compile the backend and each agentctl again.
 */
ensureBuilt('backend');
ensureBuilt('agentctl');
const root = mkdtempSync(join(tmpdir(), 'kandev-backend-cli-'));
const home = join(root, 'home');
const demoSource = join(root, 'demo-source');
const folder = join(root, 'my-project');
mkdirSync(join(demoSource, 'ts'), { recursive: true });
writeFileSync(join(demoSource, 'ts', 'main.ts'), 'export const demo = true;\n');
mkdirSync(folder);
/** agentctl pids seen by these tests: whatever a failed test left is killed here, never leaked. */
const seenAgentctls: number[] = [];
afterAll(() => {
  for (const pid of seenAgentctls) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

interface Cli {
  child: ChildProcess;
  url: string;
  stderr: string[];
  exit: Promise<number | null>;
}

function run(args: string[], env: Record<string, string> = {}): { child: ChildProcess; stdout: string[]; stderr: string[]; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [join(repoRoot, 'apps/backend/dist/backend.mjs'), ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      KANDEV_HOME: home,
      KANDEV_PORT: '0',
      KANDEV_DEMO_SOURCE: demoSource,
      // Bounds how long a wedged orphan may run before the restart's reaper escalates to SIGKILL.
      KANDEV_AGENTCTL_STOP_GRACE_MS: '3000',
      ...testTokenEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout, stderr, exit };
}

async function start(args: string[], env: Record<string, string> = {}): Promise<Cli> {
  const started = run(args, env);
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: started.child.stdout! }).on('line', (line) => {
      const match = /^Kandev is running at (http:\/\/127\.0\.0\.1:\d+)\/$/.exec(line);
      if (match) resolve(match[1] as string);
    });
    void started.exit.then((code) => reject(new Error(`exited ${code}: ${started.stderr.join('\n')}`)));
  });
  return { child: started.child, url, stderr: started.stderr, exit: started.exit };
}

async function api(url: string, method: string, path: string): Promise<any> {
  const response = await fetch(`${url}${path}`, { method, headers: authHeaders() });
  return response.json();
}

describe('kandev CLI', () => {
  it('seeds the demo and a --workspace task, prints its address, and SIGTERM reaps every agentctl', async () => {
    const cli = await start(['--demo', '--workspace', folder]);
    const { tasks } = await api(cli.url, 'GET', '/api/tasks');
    const demoFolder = join(home, 'demo-workspace');
    expect(tasks).toEqual([
      expect.objectContaining({ title: 'Demo: TypeScript, Python and Go', executor: 'local_pc', repositories: [{ path: demoFolder }] }),
      expect.objectContaining({ title: basename(folder), executor: 'local_pc', repositories: [{ path: folder }] }),
    ]);
    // The bundled servers come first on the task PATH, then the backend's own PATH.
    expect(tasks[0].env.PATH).toBe(`${join(repoRoot, 'node_modules/.bin')}${delimiter}${process.env.PATH}`);
    expect(readFileSync(join(demoFolder, 'ts/main.ts'), 'utf8')).toBe('export const demo = true;\n');

    const session = await api(cli.url, 'POST', `/api/tasks/${tasks[0].id}/sessions`);
    expect(session.status).toBe('running');
    const agentctls = childPids(cli.child.pid as number, 'agentctl');
    seenAgentctls.push(...agentctls);
    expect(agentctls).toHaveLength(1);
    writeFileSync(join(demoFolder, 'ts/main.ts'), 'export const demo = "edited by the user";\n');

    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
    expect(await eventually(() => agentctls.every((pid) => !isAlive(pid)))).toBe(true);

    // Every stderr line is one structured log object from the closed set of events.
    const events = cli.stderr.map((line) => JSON.parse(line) as { event: string; level: string });
    expect(events.every((e) => (LOG_EVENTS as readonly string[]).includes(e.event))).toBe(true);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['backend_started', 'session_running', 'session_stopped', 'backend_stopped']));
    expect(cli.stderr.join('\n')).not.toMatch(/token|bearer/i);
  });

  it('reuses the seeded tasks on the next start and never overwrites the user edits of the demo', async () => {
    const cli = await start(['--demo', '--workspace', folder]);
    const { tasks } = await api(cli.url, 'GET', '/api/tasks');
    expect(tasks.map((t: { title: string }) => t.title)).toEqual(['Demo: TypeScript, Python and Go', basename(folder)]);
    expect(readFileSync(join(home, 'demo-workspace/ts/main.ts'), 'utf8')).toBe('export const demo = "edited by the user";\n');
    const task = await api(cli.url, 'GET', `/api/tasks/${tasks[0].id}`);
    expect(task.sessions).toEqual([expect.objectContaining({ status: 'stopped' })]);
    cli.child.kill('SIGTERM');
    expect(await cli.exit).toBe(0);
  });

  it('re-adopts the agentctl a crashed backend left behind when it starts again, and SIGTERM then reaps it', async () => {
    const crashed = await start([]);
    const { tasks } = await api(crashed.url, 'GET', '/api/tasks');
    const session = await api(crashed.url, 'POST', `/api/tasks/${tasks[0].id}/sessions`);
    expect(session.status).toBe('running');
    const [orphan] = childPids(crashed.child.pid as number, 'agentctl');
    seenAgentctls.push(orphan as number);
    crashed.child.kill('SIGKILL');
    await crashed.exit;
    // Nothing stopped it: the backend died without a word, its agentctl waits out its grace.
    expect(isAlive(orphan as number)).toBe(true);

    const next = await start([]);
    // Listening means re-adoption is done: the same agentctl runs the session.
    expect(await api(next.url, 'GET', `/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    expect(isAlive(orphan as number)).toBe(true);
    next.child.kill('SIGTERM');
    expect(await next.exit).toBe(0);
    expect(isAlive(orphan as number)).toBe(false);
    // Its log went on across the takeover: agentctl writes the session's log file itself, so what it
    // said after its first backend died (the new link, its shutdown) is there.
    const events = readFileSync(join(home, 'logs', `agentctl-${session.id}.log`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events.slice(events.indexOf('backend_linked'))).toEqual(expect.arrayContaining(['backend_linked', 'shutdown_begin', 'shutdown_done']));
  });

  it('SIGUSR2 restarts: the backend exits 0 and leaves its agentctl running; the next start re-adopts it', async () => {
    const before = await start([]);
    const { tasks } = await api(before.url, 'GET', '/api/tasks');
    const session = await api(before.url, 'POST', `/api/tasks/${tasks[0].id}/sessions`);
    const [agentctl] = childPids(before.child.pid as number, 'agentctl');
    seenAgentctls.push(agentctl as number);
    before.child.kill('SIGUSR2');
    expect(await before.exit).toBe(0);
    expect(isAlive(agentctl as number)).toBe(true);

    const after = await start([]);
    expect(await api(after.url, 'GET', `/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    after.child.kill('SIGTERM');
    expect(await after.exit).toBe(0);
    expect(isAlive(agentctl as number)).toBe(false);
  });

  it('with KANDEV_RESTART_GRACE_MS=0 nothing is re-adopted: the next start marks the session stopped and reaps the agentctl left behind', async () => {
    const crashed = await start([], { KANDEV_RESTART_GRACE_MS: '0' });
    const { tasks } = await api(crashed.url, 'GET', '/api/tasks');
    const session = await api(crashed.url, 'POST', `/api/tasks/${tasks[0].id}/sessions`);
    const [orphan] = childPids(crashed.child.pid as number, 'agentctl');
    seenAgentctls.push(orphan as number);
    crashed.child.kill('SIGKILL');
    await crashed.exit;

    const next = await start([], { KANDEV_RESTART_GRACE_MS: '0' });
    expect(await eventually(() => !isAlive(orphan as number))).toBe(true);
    expect(await api(next.url, 'GET', `/api/sessions/${session.id}`)).toMatchObject({ status: 'stopped', error: 'backend restarted' });
    next.child.kill('SIGTERM');
    expect(await next.exit).toBe(0);
  });

  it('refuses a second backend on the same KANDEV_HOME while the first runs (exit 1, naming the holder)', async () => {
    const first = await start([]);
    const second = run([]);
    expect(await second.exit).toBe(1);
    expect(second.stderr.join('\n')).toContain(`another Kandev backend (pid ${first.child.pid}) is running with this KANDEV_HOME`);
    expect(await api(first.url, 'GET', '/api/health')).toEqual({ ok: true });
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
  });

  it('exits 2 naming the variable when the configuration is invalid', async () => {
    const bad = run([], { KANDEV_PORT: 'seventy' });
    expect(await bad.exit).toBe(2);
    expect(bad.stderr.join('\n')).toContain('KANDEV_PORT');
  });

  it('exits 1 with a clear message when --workspace is not a folder, and 2 on an unknown flag', async () => {
    const missing = run(['--workspace', join(root, 'nope')]);
    expect(await missing.exit).toBe(1);
    expect(missing.stderr.join('\n')).toContain(`not a folder: ${join(root, 'nope')}`);
    const unknown = run(['--wat']);
    expect(await unknown.exit).toBe(2);
    expect(unknown.stderr.join('\n')).toContain('unknown argument: --wat');
    expect(existsSync(join(root, 'nope'))).toBe(false);
  });
});
