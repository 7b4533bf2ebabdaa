/**
 * Liveness on both WebSocket hops (docs/architecture.md section 3, "Liveness"): the backend pings browsers and
 * agentctl; agentctl pings the backend. A peer that leaves its pings unanswered is dead: a frozen
 * tab is detached and its lease keeps its server, a hung agentctl (SIGSTOP) ends its leases like a
 * lost transport (4009) and frees their slots, a backend that stops answering gets its server
 * reaped. Short intervals here; the assertions are on the events, never on durations.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloseCode } from '@kandev/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentctl, taskPath as agentctlTaskPath } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { eventually, isAlive, LeaseClient, serverPids } from './lease-support.js';
import { agentctlPidFor, fakeTask, startFaultStack, type FaultStack, type FaultTask } from './faults-support.js';

const FAST_PINGS = { KANDEV_LSP_PING_INTERVAL_MS: '200', KANDEV_LSP_PING_MISSES: '2' };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function stackWith(env: Record<string, string>): Promise<FaultStack> {
  const stack = await startFaultStack({ ...FAST_PINGS, ...env });
  cleanups.push(() => stack.stop());
  return stack;
}

async function taskOn(stack: FaultStack, name: string): Promise<FaultTask> {
  const task = await fakeTask(stack, {}, name);
  cleanups.push(() => task.remove());
  return task;
}

describe('faults: keepalive, browser to backend', () => {
  it('a frozen idle tab (answers no ping) is detached; its lease keeps its server and a reattach resumes the same process', async () => {
    const stack = await stackWith({});
    const task = await taskOn(stack, 'frozen');
    const tab = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    const { ready } = await tab.initialize();
    await tab.request('kandev/echo', {});
    const [pid] = serverPids(task.logFile);

    const mark = stack.logs.length;
    tab.ws.pause(); // the tab freezes: nothing it receives is read, so no pong goes back
    expect(await stack.nextLog((l) => l.event === 'lsp_peer_unresponsive', mark)).toMatchObject({ peer: 'browser' });
    expect(await stack.nextLog((l) => l.event === 'lease_detach', mark)).toBeDefined();

    const back = new LeaseClient(stack.url, task.sessionId, 'kotlin', ready.lease as string);
    expect(await back.resume()).toMatchObject({ resumed: true, lease: ready.lease });
    await back.request('kandev/echo', {});
    expect(serverPids(task.logFile)).toEqual([pid]);
    await back.leave();
    tab.ws.terminate();
  });

  it('two frozen tabs at capacity 2 no longer hold the capacity: a new tab is admitted once they are found dead', async () => {
    const stack = await stackWith({ KANDEV_LSP_MAX_CONNECTIONS: '2' });
    const task = await taskOn(stack, 'capacity');
    const first = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await first.initialize();
    const second = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await second.initialize();
    // While both answer, the capacity is really taken.
    const refused = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    expect((await refused.readyOrClose()).close?.code).toBe(CloseCode.CapacityReached);

    const mark = stack.logs.length;
    first.ws.pause();
    second.ws.pause();
    const detaches = () => stack.logs.slice(mark).filter((l) => l.event === 'lease_detach').length;
    await stack.nextLog((l) => l.event === 'lease_detach' && detaches() === 2, mark);

    const admitted = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    const outcome = await admitted.readyOrClose();
    expect(outcome.close).toBeUndefined();
    expect(outcome.ready).toMatchObject({ status: 'ready' });
    admitted.ws.close();
    first.ws.terminate();
    second.ws.terminate();
  });
});

describe('faults: keepalive, backend to agentctl', () => {
  it('a hung agentctl (SIGSTOP) is treated as dead: its lease ends with 4009 and its slot is free for another session', async () => {
    const stack = await stackWith({ KANDEV_LSP_MAX_CONNECTIONS: '1' });
    const hung = await taskOn(stack, 'hung');
    const other = await taskOn(stack, 'other');
    const tab = new LeaseClient(stack.url, hung.sessionId, 'kotlin');
    await tab.initialize();
    const agentctl = agentctlPidFor(stack.process.pid as number, hung.workspace) as number;
    expect(agentctl).toBeGreaterThan(0);
    const mark = stack.logs.length;
    process.kill(agentctl, 'SIGSTOP');
    cleanups.push(() => {
      if (isAlive(agentctl)) process.kill(agentctl, 'SIGCONT');
    });

    expect((await tab.closed).code).toBe(CloseCode.TransportFailure);
    // The log line is written asynchronously, apart from the close: waited for, not assumed first.
    expect(await stack.nextLog((l) => l.event === 'lsp_peer_unresponsive', mark)).toMatchObject({ peer: 'task_host' });
    const next = new LeaseClient(stack.url, other.sessionId, 'kotlin');
    const outcome = await next.readyOrClose();
    expect(outcome.close).toBeUndefined();
    expect(outcome.ready).toMatchObject({ status: 'ready' });
    next.ws.close();
  });
});

describe('faults: keepalive, agentctl to backend', () => {
  it('a client that stops answering agentctl pings loses its stream, and its server is reaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kandev-faults-keepalive-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    const logFile = join(dir, 'server.jsonl');
    const agentctl = await startAgentctl({
      workspace,
      env: {
        PATH: agentctlTaskPath(bin),
        HOME: dir,
        FAKE_LSP_SCRIPT: writeScript(dir, {}),
        FAKE_LSP_LOG: logFile,
        AGENTCTL_PING_INTERVAL_MS: '200',
        AGENTCTL_PING_MISSES: '2',
      },
    });
    cleanups.push(async () => void (await agentctl.stop()));
    const client = agentctl.openStream('language=kotlin&autoInstall=false');
    await client.status('ready');
    await client.request('kandev/echo', {});
    const [server] = serverPids(logFile);
    client.ws.pause();
    expect(await eventually(() => agentctl.logs.some((l) => l.event === 'stream_client_unresponsive'))).toBe(true);
    expect(await eventually(() => !isAlive(server as number))).toBe(true);
    client.ws.terminate();
  });
});
