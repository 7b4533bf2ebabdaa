/**
 * No orphan, ever (Local PC): whatever dies (agentctl by SIGKILL, the backend by SIGKILL, both), and
 * however hard the language server resists (it ignores stdin EOF and SIGTERM, one child stays in
 * its process group, one starts its own session with setsid and also ignores SIGTERM), no process
 * of the task host's language-server trees survives (agentctl's watchdog and the backend's
 * marker sweeps are the backstops when agentctl itself is killed; an agentctl whose backend died
 * waits out the restart grace for a new one, then reaps). Real processes, checked in /proc at the
 * moment the owning side reports the end (host exited, stop answered, new backend listening).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import {
  childPids,
  eventually,
  fakeKotlinTask,
  isAlive,
  LeaseClient,
  readLog,
  removeTask,
  startLeaseBackend,
  type FakeTask,
  type LeaseBackend,
} from './lease-support.js';

/** A server only SIGKILL ends, with three descendants: same group, own session (stubborn), plain. */
const stubborn: FakeScript = {
  capabilities: { hoverProvider: true },
  ignoreEof: true,
  ignoreSigterm: true,
  onStart: [
    { spawnDescendant: { ignoreSigterm: true } },
    { spawnDescendant: { detached: true, ignoreSigterm: true } },
    { spawnDescendant: { detached: true } },
  ],
};

/** The server's pid and its three descendants, once all of them run. */
async function treeOf(logFile: string): Promise<number[]> {
  const spawned = () => readLog(logFile).flatMap((l) => ('spawned' in l.message ? [l.message.spawned as number] : []));
  expect(await eventually(() => spawned().length === 3)).toBe(true);
  const server = readLog(logFile)[0]?.pid as number;
  const tree = [server, ...spawned()];
  expect(tree.filter(isAlive)).toEqual(tree);
  return tree;
}

describe('Local PC: no language-server process outlives its task host', () => {
  let stack: LeaseBackend;
  const tasks: FakeTask[] = [];

  beforeAll(async () => {
    stack = await startLeaseBackend();
  });

  afterAll(async () => {
    await stack?.close();
    tasks.forEach(removeTask);
  });

  it('S55 agentctl killed with SIGKILL: the backend reaps the whole tree by its marker before the task host counts as exited', async () => {
    const task = await fakeKotlinTask(stack, stubborn, 'agentctl-sigkill');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await client.initialize();
    const tree = await treeOf(task.logFile);
    const host = stack.backend.sessions.liveHost(task.sessionId);
    expect(host?.pid).toBe(task.agentctlPid);

    process.kill(task.agentctlPid, 'SIGKILL');
    const exit = await host!.exited;
    expect(exit).toMatchObject({ signal: 'SIGKILL', requested: false });
    // At the moment the backend declares the task host gone, nothing of its tree runs.
    expect(tree.filter(isAlive)).toEqual([]);
    await client.closed;
  });

  it('S55 stopping the session ends a server that ignores EOF and SIGTERM, and its setsid children, before the stop is answered', async () => {
    const task = await fakeKotlinTask(stack, stubborn, 'session-stop');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await client.initialize();
    const tree = await treeOf(task.logFile);

    expect((await stack.api('POST', `/api/sessions/${task.sessionId}/stop`)).json).toMatchObject({ status: 'stopped' });
    expect([task.agentctlPid, ...tree].filter(isAlive)).toEqual([]);
    await client.closed;
  });
});

describe('Local PC: a backend that dies (SIGKILL) leaves nothing behind', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** The built backend in its own process (so it can really die), with one leased stubborn server. */
  async function stackWithServer(env: Record<string, string> = {}): Promise<{ stack: RunningStack; agentctl: number; tree: number[]; client: LeaseClient }> {
    const stack = await startStack({ KANDEV_LOG_STDERR: '0', ...env });
    const dir = mkdtempSync(join(tmpdir(), 'kandev-faults-orphans-'));
    dirs.push(dir);
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() {}\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    const logFile = join(dir, 'server.jsonl');
    const task = await stack.createTask({ workspace, env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, stubborn), FAKE_LSP_LOG: logFile } });
    const session = await stack.startSession(task.id);
    expect(session.status).toBe('running');
    const [agentctl] = childPids(stack.process.pid as number, 'agentctl');
    const client = new LeaseClient(stack.url, session.id, 'kotlin');
    await client.initialize();
    return { stack, agentctl: agentctl as number, tree: await treeOf(logFile), client };
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

  function killed(stack: RunningStack): Promise<unknown> {
    return new Promise((resolve) => stack.process.once('exit', resolve));
  }

  it('S55 backend SIGKILL and no backend again: agentctl sees its stdin close, waits out the restart grace, then reaps the tree and exits', async () => {
    const { stack, agentctl, tree, client } = await stackWithServer({ KANDEV_RESTART_GRACE_MS: '1500' });
    const gone = killed(stack);
    stack.process.kill('SIGKILL');
    await gone;
    await client.closed;
    // agentctl is not our child: its exit has no event here, so its disappearance is polled; the
    // tree is checked at that moment (agentctl exits only after reaping).
    expect(await eventually(() => !isAlive(agentctl))).toBe(true);
    expect(tree.filter(isAlive)).toEqual([]);
    rmSync(stack.home, { recursive: true, force: true });
  });

  it("S55 backend and agentctl both SIGKILLed, nobody restarts anything: agentctl's watchdog kills the trees", async () => {
    const { stack, agentctl, tree, client } = await stackWithServer();
    const watchdog = watchdogOf(agentctl);
    expect(watchdog).toBeDefined();
    process.kill(agentctl, 'SIGSTOP');
    const gone = killed(stack);
    stack.process.kill('SIGKILL');
    await gone;
    process.kill(agentctl, 'SIGKILL');
    await client.closed;
    // The watchdog is not our child either: its end is polled; it exits right after its sweep.
    expect(await eventually(() => !isAlive(watchdog as number))).toBe(true);
    expect(tree.filter(isAlive)).toEqual([]);
    rmSync(stack.home, { recursive: true, force: true });
  });

  it('S55 backend, agentctl and its watchdog all SIGKILLed: the next backend with the same KANDEV_HOME reaps the trees before it listens', async () => {
    const { stack, agentctl, tree, client } = await stackWithServer();
    // As an OOM killer taking everything at once: the watchdog goes first.
    process.kill(watchdogOf(agentctl) as number, 'SIGKILL');
    // agentctl is frozen first so it cannot react to its stdin's end, and killed only once the
    // backend is dead, so the backend cannot react to agentctl's exit either.
    process.kill(agentctl, 'SIGSTOP');
    const gone = killed(stack);
    stack.process.kill('SIGKILL');
    await gone;
    process.kill(agentctl, 'SIGKILL');
    await client.closed;
    expect(await eventually(() => !isAlive(agentctl))).toBe(true);
    // The stubborn descendants survived both deaths: they ignore EOF and SIGTERM and left the
    // server's group. (The server itself may already be gone: an untrusted one runs under the network
    // sandbox, which dies with agentctl and takes its direct child along.)
    const descendants = tree.slice(1);
    expect(descendants.filter(isAlive)).toEqual(descendants);

    const next = await startStack({ KANDEV_LOG_STDERR: '0', KANDEV_HOME: stack.home });
    try {
      // Listening means the start-up sweep is done.
      expect(tree.filter(isAlive)).toEqual([]);
    } finally {
      await next.stop();
      rmSync(stack.home, { recursive: true, force: true });
    }
  });
});
