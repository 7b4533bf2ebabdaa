/**
 * A backend restart keeps the language servers (Local PC, real servers): the backend is SIGKILLed
 * with three leases (typescript and pyright attached, a second typescript detached), started again
 * on the same KANDEV_HOME, and each lease hint resumes its very server: the same processes, no
 * second `initialize` (the resumed ready frame carries the retained result), documents reopened,
 * hover answered. Then a stop still stops: SIGTERM ends every task host and reaps every tree.
 * The backends run as users run them (the built bundle in a process of its own), so they can die.
 * The faults across a restart are in restart-faults.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { childPids, descendants, eventually, isAlive, LeaseClient, serverChildren } from './lease-support.js';

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
    const servers = serverChildren(agentctl as number);
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

    // What the next backend needs is private: the database is 0600, the task host's token is in it and
    // in no process's argv (agentctl and its servers are visible to every user in /proc).
    expect(statSync(join(home, 'kandev.db')).mode & 0o777).toBe(0o600);
    const db0 = new Database(join(home, 'kandev.db'), { readonly: true });
    const { token } = db0.prepare('SELECT host_token AS token FROM sessions WHERE id = ?').get(session.id) as { token: string };
    db0.close();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect([agentctl as number, ...tree].filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(token))).toEqual([]);

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
    // Nor anywhere below them: every process under the task host was there before the restart.
    expect(descendants(agentctl as number).filter((pid) => !tree.includes(pid))).toEqual([]);
    // And none is gone or new: the task host's server children (its watchdog aside) are exactly the ones it had.
    expect(serverChildren(agentctl as number).sort()).toEqual([...servers].sort());

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
