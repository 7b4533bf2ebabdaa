/**
 * Faults across a backend restart (Local PC, the scriptable fake server installed as kotlin-lsp,
 * backends run as users run them so they can die): each ends cleanly, with the contract's close
 * codes, nothing orphaned, and a consistent database (`PRAGMA integrity_check`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { testTokenEnv } from '../support/access.js';
import { repoRoot } from '../support/build.js';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { childPids, eventually, isAlive, LeaseClient, readLog } from './lease-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-restart-faults-'));
const stacks: RunningStack[] = [];
const seen: number[] = [];
const spawned: ChildProcess[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop().catch(() => undefined);
  for (const child of spawned) child.kill('SIGKILL');
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGCONT');
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const env = { KANDEV_LOG_STDERR: '0', KANDEV_RESTART_GRACE_MS: '60000' };
const hoverOnly: FakeScript = { capabilities: { hoverProvider: true } };

function killed(stack: RunningStack): Promise<unknown> {
  return new Promise((resolve) => stack.process.once('exit', resolve));
}

async function backend(home: string): Promise<RunningStack> {
  const stack = await startStack({ ...env, KANDEV_HOME: home });
  stacks.push(stack);
  return stack;
}

/** The built backend in a process of its own, not waited for (a test kills it part-way). */
function rawBackend(home: string): ChildProcess {
  const child = spawn(process.execPath, [join(repoRoot, 'apps/backend/dist/backend.mjs')], {
    env: { ...process.env, ...testTokenEnv, ...env, KANDEV_HOME: home, KANDEV_PORT: '0' },
    stdio: 'ignore',
  });
  spawned.push(child);
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** agentctl's watchdog: its child carrying KANDEV_WATCHDOG_INSTANCE. */
function watchdogOf(agentctl: number): number | undefined {
  return childPids(agentctl).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').includes('KANDEV_WATCHDOG_INSTANCE=');
    } catch {
      return false;
    }
  });
}

function withDb<T>(home: string, read: (db: Database.Database) => T, readonly = true): T {
  const db = new Database(join(home, 'kandev.db'), { readonly });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const persistedLeases = (home: string) => withDb(home, (db) => (db.prepare('SELECT COUNT(*) AS n FROM lsp_leases').get() as { n: number }).n);
/** How many `initialize` requests the fake server's processes received, by their own log. */
const initializes = (logFile: string) => readLog(logFile).filter((l) => l.message.method === 'initialize').length;
const integrity = (home: string) => withDb(home, (db) => db.pragma('integrity_check', { simple: true }));

/** Whether `pid` holds an established TCP connection to 127.0.0.1:`port` (read from /proc, no tool). */
function connectedTo(pid: number, port: number): boolean {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [, , remote, state, , , , , , inode] = fields;
      if (state === '01' && remote?.endsWith(`:${hexPort}`)) inodes.add(inode as string);
    }
  }
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        return inodes.has(target.replace(/^socket:\[(\d+)\]$/, '$1'));
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

interface Leased {
  stack: RunningStack;
  home: string;
  sessionId: string;
  agentctl: number;
  port: number;
  server: number;
  hint: string;
  logFile: string;
}

/** A backend with one resumable fake-server lease, SIGKILLed: what the next backend finds. */
async function leasedStack(name: string, script: FakeScript = hoverOnly): Promise<Leased> {
  const dir = join(root, name);
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'Main.kt'), 'fun main() {}\n');
  const bin = join(dir, 'bin');
  installFakeServer(bin, 'kotlin-lsp');
  const logFile = join(dir, 'server.jsonl');
  const home = join(dir, 'home');
  const stack = await backend(home);
  const task = await stack.createTask({ workspace, env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: logFile } });
  const session = await stack.startSession(task.id);
  const [agentctl] = childPids(stack.process.pid as number, 'agentctl');
  seen.push(agentctl as number);
  const client = new LeaseClient(stack.url, session.id, 'kotlin');
  const { ready } = await client.initialize();
  const server = readLog(logFile)[0]?.pid as number;
  seen.push(server);
  // Resumable once the backend has seen `initialized` and written the lease down.
  expect(await eventually(() => persistedLeases(home) === 1)).toBe(true);
  const port = withDb(home, (db) => (db.prepare('SELECT host_port AS port FROM sessions WHERE id = ?').get(session.id) as { port: number }).port);
  const died = killed(stack);
  stack.process.kill('SIGKILL');
  await died;
  await client.closed;
  return { stack, home, sessionId: session.id, agentctl: agentctl as number, port, server, hint: ready.lease as string, logFile };
}

describe('restart faults', () => {
  it('a task host whose token no longer matches is not adopted: the session is stopped, its agentctl and server are reaped, and its hint closes 4002', async () => {
    const { home, sessionId, agentctl, server, hint } = await leasedStack('token');
    withDb(home, (db) => db.prepare('UPDATE sessions SET host_token = ? WHERE id = ?').run('f'.repeat(64), sessionId), false);
    const next = await backend(home);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'stopped', error: 'backend restarted' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect((await client.readyOrClose()).close?.code).toBe(4002);
    // Not adopted means not owned: reaped (SIGTERM to its group, SIGKILL after the grace).
    expect(await eventually(() => !isAlive(agentctl))).toBe(true);
    expect(await eventually(() => !isAlive(server))).toBe(true);
    expect(persistedLeases(home)).toBe(0);
    expect(integrity(home)).toBe('ok');
  });

  it('an identity mismatch (the recorded pid now belongs to another process) is not adopted: that process is left alone, the task host is swept by its marker before the backend listens, and the hint closes 4002', async () => {
    const { home, sessionId, agentctl, server, hint } = await leasedStack('identity');
    // A reused pid: the record names a bystander (same user, other start time), not agentctl.
    const bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
    spawned.push(bystander);
    withDb(home, (db) => db.prepare('UPDATE sessions SET host_pid = ? WHERE id = ?').run(bystander.pid, sessionId), false);
    const next = await backend(home);
    // Swept before listening: the real agentctl and its server carried this home's owner marker.
    expect([agentctl, server].filter(isAlive)).toEqual([]);
    expect(isAlive(bystander.pid as number)).toBe(true);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'stopped', error: 'backend restarted' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect((await client.readyOrClose()).close?.code).toBe(4002);
    expect(persistedLeases(home)).toBe(0);
    expect(integrity(home)).toBe('ok');
  });

  it('a task host that died meanwhile: the next backend sweeps its trees before it listens and the hint closes 4002', async () => {
    const { home, sessionId, agentctl, server, hint } = await leasedStack('host-died');
    // Frozen first so it cannot reap, its watchdog killed too (as an OOM killer taking everything).
    const watchdog = watchdogOf(agentctl);
    process.kill(agentctl, 'SIGSTOP');
    if (watchdog !== undefined) process.kill(watchdog, 'SIGKILL');
    process.kill(agentctl, 'SIGKILL');
    expect(await eventually(() => !isAlive(agentctl))).toBe(true);
    const next = await backend(home);
    expect(isAlive(server)).toBe(false);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'stopped' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect((await client.readyOrClose()).close?.code).toBe(4002);
    expect(persistedLeases(home)).toBe(0);
    expect(integrity(home)).toBe('ok');
  });

  it('a lease whose server exited during the gap is not resumed: its hint gets a fresh server on the re-adopted task host', async () => {
    const { home, sessionId, agentctl, server, hint, logFile } = await leasedStack('server-died');
    process.kill(server, 'SIGKILL');
    expect(await eventually(() => !isAlive(server))).toBe(true);
    const next = await backend(home);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'running' });
    expect(isAlive(agentctl)).toBe(true);
    // Forgotten before listening: nothing claims a server that is gone.
    expect(persistedLeases(home)).toBe(0);
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    const { ready } = await client.initialize();
    expect(ready).toMatchObject({ resumed: false });
    expect(ready.lease).not.toBe(hint);
    const pids = [...new Set(readLog(logFile).map((l) => l.pid))];
    expect(pids).toHaveLength(2);
    expect(integrity(home)).toBe('ok');
  });

  it('a lease still initializing when the backend died comes back cold: its server is reaped before the next backend listens, and its hint gets a fresh server that is initialized again', async () => {
    const dir = join(root, 'initializing');
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() {}\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    const logFile = join(dir, 'server.jsonl');
    const home = join(dir, 'home');
    // The first process takes its time to answer initialize (a project still loading); later ones answer at once.
    const script: FakeScript = {
      capabilities: { hoverProvider: true },
      rules: { initialize: [{ once: join(dir, 'slow-once'), actions: [{ delayMs: 60_000 }] }] },
    };
    const first = await backend(home);
    const task = await first.createTask({ workspace, env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: logFile } });
    const session = await first.startSession(task.id);
    const [agentctl] = childPids(first.process.pid as number, 'agentctl');
    seen.push(agentctl as number);
    const client = new LeaseClient(first.url, session.id, 'kotlin');
    const ready = await client.waitFor((f) => f.status === 'ready');
    client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: ready.workspaceUri, capabilities: {} } });
    expect(await eventually(() => readLog(logFile).some((l) => l.message.method === 'initialize'))).toBe(true);
    const server = readLog(logFile)[0]?.pid as number;
    seen.push(server);
    // Nothing is written down for a lease the backend never saw initialized.
    expect(persistedLeases(home)).toBe(0);
    const died = killed(first);
    first.process.kill('SIGKILL');
    await died;
    await client.closed;
    expect([agentctl as number, server].filter(isAlive)).toEqual([agentctl, server]);

    const next = await backend(home);
    expect(await next.api(`/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    // Its stream had no lease to claim it: closed, and agentctl reaped the half-initialized server.
    // Checked at the moment it must hold (the backend listens). The race this once lost in CI (the
    // backend listening while agentctl was still reaping) is not forced here: agentctl has no hook
    // to hold a reap, and a server that ignores SIGTERM (so its reap takes the whole grace period)
    // still passed with the release handshake removed; the losing order depends on scheduling
    // inside agentctl that a test outside it cannot pin down.
    expect(isAlive(server)).toBe(false);
    expect(isAlive(agentctl as number)).toBe(true);
    const back = new LeaseClient(next.url, session.id, 'kotlin', ready.lease as string);
    const cold = await back.initialize();
    // Honest: not resumed (the browser initializes again), on a new lease and a new process.
    expect(cold.ready).toMatchObject({ resumed: false });
    expect(cold.ready.lease).not.toBe(ready.lease);
    expect(cold.result.result).toMatchObject({ capabilities: { hoverProvider: true } });
    const pids = [...new Set(readLog(logFile).map((l) => l.pid))];
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([pids[1]]);
    expect(integrity(home)).toBe('ok');
  });

  it('a backend that dies while it checks the task hosts leaves everything for the next one: the lease still resumes on the same server', async () => {
    const { home, sessionId, agentctl, port, server, hint, logFile } = await leasedStack('dies-checking');
    // Frozen, agentctl cannot answer the identity check's health request: the next backend is
    // caught in the middle of re-adoption, its connection to agentctl open, and is killed there.
    process.kill(agentctl, 'SIGSTOP');
    const dying = rawBackend(home);
    try {
      expect(await eventually(() => connectedTo(dying.pid as number, port))).toBe(true);
      const died = exitOf(dying);
      dying.kill('SIGKILL');
      await died;
    } finally {
      process.kill(agentctl, 'SIGCONT');
    }
    const next = await backend(home);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'running' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect(await client.resume([])).toMatchObject({ lease: hint, resumed: true });
    expect([agentctl, server].filter(isAlive)).toEqual([agentctl, server]);
    expect(initializes(logFile)).toBe(1);
    expect(integrity(home)).toBe('ok');
  });

  it('a backend that dies while it rebuilds the leases leaves everything for the next one: the lease still resumes on the same server', async () => {
    const { home, sessionId, agentctl, server, hint, logFile } = await leasedStack('dies-adopting');
    // Killed once it re-adopted the task host, before (or while) it rebuilds the leases.
    const dying = rawBackend(home);
    const backendLog = join(home, 'logs/backend.log');
    expect(await eventually(() => existsSync(backendLog) && readFileSync(backendLog, 'utf8').includes('"sessions_recovered"'), 1_200)).toBe(true);
    const died = exitOf(dying);
    dying.kill('SIGKILL');
    await died;
    const next = await backend(home);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'running' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    const ready = await client.resume([]);
    expect(ready).toMatchObject({ lease: hint, resumed: true });
    expect([agentctl, server].filter(isAlive)).toEqual([agentctl, server]);
    // One server all along, told `initialize` once, by the first backend.
    expect(initializes(logFile)).toBe(1);
    const stopped = killed(next);
    next.process.kill('SIGTERM');
    await stopped;
    expect([agentctl, server].filter(isAlive)).toEqual([]);
    expect(persistedLeases(home)).toBe(0);
    expect(integrity(home)).toBe('ok');
  });

  it('two backends started at once on the same home after a crash: one re-adopts and serves, the other exits 1, and the lease still resumes on the same server', async () => {
    const { home, sessionId, agentctl, server, hint, logFile } = await leasedStack('two-backends');
    const [a, b] = [rawBackend(home), rawBackend(home)];
    // Exactly one of them refuses; the other keeps running.
    const loser = await Promise.race([exitOf(a).then((code) => ({ code, other: b })), exitOf(b).then((code) => ({ code, other: a }))]);
    expect(loser.code).toBe(1);
    const winner = loser.other;
    const lock = JSON.parse(readFileSync(join(home, 'backend.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(winner.pid);
    winner.kill('SIGKILL');
    await exitOf(winner);
    expect([agentctl, server].filter(isAlive)).toEqual([agentctl, server]);
    // The survivor's home is consistent: the next backend re-adopts and the hint resumes.
    const next = await backend(home);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'running' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect(await client.resume([])).toMatchObject({ lease: hint, resumed: true });
    expect(initializes(logFile)).toBe(1);
    expect(integrity(home)).toBe('ok');
  });
});
