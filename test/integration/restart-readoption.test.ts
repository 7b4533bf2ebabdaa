/**
 * A backend restart keeps the language servers (Local PC, real servers): the backend is SIGKILLed
 * with three leases (typescript and pyright attached, a second typescript detached), started again
 * on the same KANDEV_HOME, and each lease hint resumes its very server: the same processes, no
 * second `initialize` (the resumed ready frame carries the retained result), documents reopened,
 * hover answered. Then a stop still stops: SIGTERM ends every task host and reaps every tree.
 * The backends run as users run them (the built bundle in a process of its own), so they can die.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { testTokenEnv } from '../support/access.js';
import { repoRoot } from '../support/build.js';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { childPids, descendants, eventually, isAlive, LeaseClient, readLog } from './lease-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-restart-'));
const home = join(root, 'home');
const stacks: RunningStack[] = [];
const seen: number[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop().catch(() => undefined);
  for (const pid of seen) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const env = { KANDEV_HOME: home, KANDEV_LOG_STDERR: '0', KANDEV_RESTART_GRACE_MS: '60000' };

async function backend(): Promise<RunningStack> {
  const stack = await startStack(env);
  stacks.push(stack);
  return stack;
}

function killed(stack: RunningStack): Promise<unknown> {
  return new Promise((resolve) => stack.process.once('exit', resolve));
}

const tsText = 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\nexport const g = greet("x");\n';
const pyText = 'def double(n: int) -> int:\n    return n * 2\n\nvalue = double(2)\n';

function hover(client: LeaseClient, uri: string, line: number, character: number) {
  return client.request('textDocument/hover', { textDocument: { uri }, position: { line, character } });
}

async function opened(stack: RunningStack, sessionId: string, language: string, uri: string, text: string, hint?: string): Promise<LeaseClient> {
  const client = new LeaseClient(stack.url, sessionId, language, hint);
  await client.initialize();
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: language, version: 1, text } });
  return client;
}

describe('restarts', () => {
  it('C05 C11 across a backend restart: a SIGKILLed backend started again on the same home re-adopts its task host: same server processes, leases resumed without a second initialize, hover answered', async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }));
    writeFileSync(join(workspace, 'a.ts'), tsText);
    writeFileSync(join(workspace, 'b.py'), pyText);
    const taskHome = join(root, 'task-home');
    mkdirSync(taskHome);
    const tsUri = `file://${workspace}/a.ts`;
    const pyUri = `file://${workspace}/b.py`;

    const first = await backend();
    const task = await first.createTask({ workspace, env: { PATH: taskPath(), HOME: taskHome } });
    const session = await first.startSession(task.id);
    const [agentctl] = childPids(first.process.pid as number, 'agentctl');
    seen.push(agentctl as number);

    // Two attached (typescript, python) and one detached (a second typescript window, closed).
    const ts = await opened(first, session.id, 'typescript', tsUri, tsText);
    const py = await opened(first, session.id, 'python', pyUri, pyText);
    const other = await opened(first, session.id, 'typescript', tsUri, tsText);
    expect((await hover(ts, tsUri, 0, 17)).result).not.toBeNull();
    expect((await hover(py, pyUri, 0, 5)).result).not.toBeNull();
    const hints = [ts, py, other].map((c) => c.frames.find((f) => f.status === 'ready')?.lease as string);
    const initializeResults = [ts, py, other].map((c) => c.frames.find((f) => f.id === 1)?.result);
    await other.leave();
    const servers = childPids(agentctl as number).filter((pid) => descendants(agentctl as number).includes(pid));
    const tree = descendants(agentctl as number);
    seen.push(...tree);
    expect(servers).toHaveLength(3);
    // All three are written down (the backend saw each one's `initialized`): resumable.
    expect(
      await eventually(() => {
        const db = new Database(join(home, 'kandev.db'), { readonly: true });
        try {
          return (db.prepare('SELECT COUNT(*) AS n FROM lsp_leases').get() as { n: number }).n === 3;
        } finally {
          db.close();
        }
      }),
    ).toBe(true);

    const gone = killed(first);
    first.process.kill('SIGKILL');
    await gone;
    await Promise.all([ts.closed, py.closed]);
    // Nobody owns the task host now: it and every server keep running for the grace period.
    expect([agentctl as number, ...tree].filter(isAlive)).toEqual([agentctl, ...tree]);

    const second = await backend();
    // Listening means re-adoption is done: the session is running on the very same agentctl.
    expect(await second.api(`/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    const resumed = [
      new LeaseClient(second.url, session.id, 'typescript', hints[0]),
      new LeaseClient(second.url, session.id, 'python', hints[1]),
      new LeaseClient(second.url, session.id, 'typescript', hints[2]),
    ];
    const readies = await Promise.all(resumed.map((c) => c.waitFor((f) => f.status === 'ready')));
    // The same leases, resumed: the browser must not send initialize, it rebuilds from the retained result.
    expect(readies.map((r) => [r.lease, r.resumed])).toEqual(hints.map((h) => [h, true]));
    expect(readies.map((r) => r.initializeResult)).toEqual(initializeResults);
    const [tsBack, pyBack, otherBack] = resumed as [LeaseClient, LeaseClient, LeaseClient];
    const reopen = (client: LeaseClient, uri: string, language: string, text: string) => {
      client.notify('textDocument/didOpen', { textDocument: { uri, languageId: language, version: 1, text } });
      client.control({ control: 'attachment-ready' });
      return client.waitFor((f) => f.status === 'synchronized');
    };
    await Promise.all([reopen(tsBack, tsUri, 'typescript', tsText), reopen(pyBack, pyUri, 'python', pyText), reopen(otherBack, tsUri, 'typescript', tsText)]);
    const answers = await Promise.all([hover(tsBack, tsUri, 0, 17), hover(pyBack, pyUri, 0, 5), hover(otherBack, tsUri, 3, 14)]);
    expect(answers.map((a) => [a.error, a.result !== null])).toEqual([
      [undefined, true],
      [undefined, true],
      [undefined, true],
    ]);
    // No server was started again: the same processes answer.
    expect(childPids(agentctl as number).filter((pid) => servers.includes(pid))).toEqual(servers);
    expect(descendants(agentctl as number).filter((pid) => !tree.includes(pid) && servers.includes(pid))).toEqual([]);
    expect(
      childPids(agentctl as number)
        .filter((pid) => descendants(agentctl as number).includes(pid))
        .sort(),
    ).toEqual([...servers].sort());

    // A stop still stops: SIGTERM ends the re-adopted task host and reaps every tree before exit.
    const stopped = killed(second);
    second.process.kill('SIGTERM');
    await stopped;
    expect([agentctl as number, ...tree].filter(isAlive)).toEqual([]);
    const db = new Database(join(home, 'kandev.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT COUNT(*) AS n FROM lsp_leases').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

/**
 * Faults across a restart (the scriptable fake server installed as kotlin-lsp): each ends cleanly,
 * with the contract's close codes, nothing orphaned, and a consistent database.
 */
describe('restart faults', () => {
  const script: FakeScript = { capabilities: { hoverProvider: true } };

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

  async function leasedStack(
    name: string,
  ): Promise<{ stack: RunningStack; home: string; sessionId: string; agentctl: number; server: number; hint: string; logFile: string }> {
    const dir = join(root, name);
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() {}\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    const logFile = join(dir, 'server.jsonl');
    const faultHome = join(dir, 'home');
    const stack = await startStack({ ...env, KANDEV_HOME: faultHome });
    stacks.push(stack);
    const task = await stack.createTask({ workspace, env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: logFile } });
    const session = await stack.startSession(task.id);
    const [agentctl] = childPids(stack.process.pid as number, 'agentctl');
    seen.push(agentctl as number);
    const client = new LeaseClient(stack.url, session.id, 'kotlin');
    const { ready } = await client.initialize();
    const server = readLog(logFile)[0]?.pid as number;
    seen.push(server);
    // Resumable once the backend has seen `initialized` and written the lease down.
    expect(await eventually(() => persistedLeases(faultHome) === 1)).toBe(true);
    const died = killed(stack);
    stack.process.kill('SIGKILL');
    await died;
    await client.closed;
    return { stack, home: faultHome, sessionId: session.id, agentctl: agentctl as number, server, hint: ready.lease as string, logFile };
  }

  function persistedLeases(faultHome: string): number {
    const db = new Database(join(faultHome, 'kandev.db'), { readonly: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM lsp_leases').get() as { n: number }).n;
    } finally {
      db.close();
    }
  }

  function integrity(faultHome: string): unknown {
    const db = new Database(join(faultHome, 'kandev.db'), { readonly: true });
    try {
      return db.pragma('integrity_check', { simple: true });
    } finally {
      db.close();
    }
  }

  it('a task host whose token no longer matches is not adopted: the session is stopped, its agentctl and server are reaped, and its hint closes 4002', async () => {
    const { home: faultHome, sessionId, agentctl, server, hint } = await leasedStack('token');
    const db = new Database(join(faultHome, 'kandev.db'));
    db.prepare('UPDATE sessions SET host_token = ? WHERE id = ?').run('f'.repeat(64), sessionId);
    db.close();
    const next = await startStack({ ...env, KANDEV_HOME: faultHome });
    stacks.push(next);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'stopped', error: 'backend restarted' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect((await client.readyOrClose()).close?.code).toBe(4002);
    // Not adopted means not owned: reaped (SIGTERM to its group, SIGKILL after the grace).
    expect(await eventually(() => !isAlive(agentctl))).toBe(true);
    expect(await eventually(() => !isAlive(server))).toBe(true);
    expect(integrity(faultHome)).toBe('ok');
  });

  it('a task host that died meanwhile: the next backend sweeps its trees before it listens and the hint closes 4002', async () => {
    const { home: faultHome, sessionId, agentctl, server, hint } = await leasedStack('host-died');
    // Frozen first so it cannot reap, its watchdog killed too (as an OOM killer taking everything).
    const watchdog = watchdogOf(agentctl);
    process.kill(agentctl, 'SIGSTOP');
    if (watchdog !== undefined) process.kill(watchdog, 'SIGKILL');
    process.kill(agentctl, 'SIGKILL');
    expect(await eventually(() => !isAlive(agentctl))).toBe(true);
    const next = await startStack({ ...env, KANDEV_HOME: faultHome });
    stacks.push(next);
    expect(isAlive(server)).toBe(false);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'stopped' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    expect((await client.readyOrClose()).close?.code).toBe(4002);
    expect(integrity(faultHome)).toBe('ok');
  });

  it('a lease whose server exited during the gap is not resumed: its hint gets a fresh server on the re-adopted task host', async () => {
    const { home: faultHome, sessionId, agentctl, server, hint, logFile } = await leasedStack('server-died');
    process.kill(server, 'SIGKILL');
    expect(await eventually(() => !isAlive(server))).toBe(true);
    const next = await startStack({ ...env, KANDEV_HOME: faultHome });
    stacks.push(next);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'running' });
    expect(isAlive(agentctl)).toBe(true);
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    const { ready } = await client.initialize();
    expect(ready).toMatchObject({ resumed: false });
    expect(ready.lease).not.toBe(hint);
    const pids = [...new Set(readLog(logFile).map((l) => l.pid))];
    expect(pids).toHaveLength(2);
    expect(integrity(faultHome)).toBe('ok');
  });

  it('a backend that dies while it re-adopts leaves everything for the next one: the lease still resumes on the same server', async () => {
    const { home: faultHome, sessionId, agentctl, server, hint } = await leasedStack('dies-adopting');
    // Killed once it re-adopted the task host, before (or while) it rebuilds the leases.
    const dying = spawn(process.execPath, [join(repoRoot, 'apps/backend/dist/backend.mjs')], {
      env: { ...process.env, ...testTokenEnv, ...env, KANDEV_HOME: faultHome, KANDEV_PORT: '0' },
      stdio: 'ignore',
    });
    const backendLog = join(faultHome, 'logs/backend.log');
    expect(await eventually(() => existsSync(backendLog) && readFileSync(backendLog, 'utf8').includes('"sessions_recovered"'), 1_200)).toBe(true);
    const died = new Promise((resolve) => dying.once('exit', resolve));
    dying.kill('SIGKILL');
    await died;
    const next = await startStack({ ...env, KANDEV_HOME: faultHome });
    stacks.push(next);
    expect(await next.api(`/api/sessions/${sessionId}`)).toMatchObject({ status: 'running' });
    const client = new LeaseClient(next.url, sessionId, 'kotlin', hint);
    const ready = await client.resume([]);
    expect(ready).toMatchObject({ lease: hint, resumed: true });
    expect([agentctl, server].filter(isAlive)).toEqual([agentctl, server]);
    const stopped = killed(next);
    next.process.kill('SIGTERM');
    await stopped;
    expect([agentctl, server].filter(isAlive)).toEqual([]);
    expect(integrity(faultHome)).toBe('ok');
  });
});
