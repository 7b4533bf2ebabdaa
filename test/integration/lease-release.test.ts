import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import {
  aliveWhen,
  eventually,
  fakeKotlinTask,
  isAlive,
  LeaseClient,
  readLog,
  received,
  removeTask,
  sample,
  serverPids,
  shutdownTail,
  startLeaseBackend,
  type FakeTask,
  type LeaseBackend,
} from './lease-support.js';

/** Explicit release (Stop, editor idle): acknowledged, the server shut down and reaped (C06 broker part). */
const script: FakeScript = {
  capabilities: { hoverProvider: true },
  onStart: [{ spawnDescendant: {} }],
  rules: { 'textDocument/hover': [{ delayMs: 3_000 }, { respond: { contents: 'slow' } }] },
};

let stack: LeaseBackend;
const tasks: FakeTask[] = [];

beforeAll(async () => {
  stack = await startLeaseBackend();
});

afterAll(async () => {
  await stack?.close();
  tasks.forEach(removeTask);
});

function spawned(task: FakeTask): number | undefined {
  const line = readLog(task.logFile).find((l) => 'spawned' in l.message);
  return (line?.message as { spawned?: number } | undefined)?.spawned;
}

describe.each(['stop', 'editor_idle'] as const)('release with reason %s', (reason) => {
  it(`C06 a release (${reason}) is acknowledged after shutdown and exit, and the server's whole process tree is reaped`, async () => {
    const task = await fakeKotlinTask(stack, script, `release-${reason}`);
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    const { ready } = await client.initialize();
    expect(await eventually(() => spawned(task) !== undefined)).toBe(true);
    const [pid] = serverPids(task.logFile);
    const descendant = spawned(task) as number;
    const before = await stack.metrics();

    // Nothing of the tree may run at the moment `released` arrives (agentctl reported it reaped).
    const aliveAtReleased = aliveWhen(
      client,
      (f) => f.status === 'released',
      () => [pid as number, descendant],
    );
    client.control({ control: 'release', reason });
    expect(await client.waitFor((f) => f.status === 'released')).toEqual({ status: 'released', reason });
    expect(await aliveAtReleased).toEqual([]);
    expect(await client.closed).toMatchObject({ code: 1000 });
    // agentctl gives the server a moment to act on `exit` before it reaps it.
    expect(shutdownTail(task.logFile)).toBe('shutdown,exit');
    expect(stack.backend.leases.pins.isPinned(task.sessionId)).toBe(false);
    const after = await stack.metrics();
    const series = `kandev_lsp_leases_released_total{reason="${reason}"}`;
    expect(sample(after, series)).toBe(sample(before, series) + 1);

    // The released lease is gone: its hint starts a new server, and initialize reaches it.
    const next = new LeaseClient(stack.url, task.sessionId, 'kotlin', ready.lease);
    const fresh = await next.initialize();
    expect(fresh.ready.lease).not.toBe(ready.lease);
    expect(await eventually(() => serverPids(task.logFile).length === 2)).toBe(true);
    await next.leave();
  });
});

describe('release and pending work', () => {
  it('C13 a request pending at an explicit Stop is rejected with RequestCancelled before the server is shut down', async () => {
    const task = await fakeKotlinTask(stack, script, 'release-pending');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await client.initialize();
    client.send({ jsonrpc: '2.0', id: 'slow', method: 'textDocument/hover', params: { textDocument: { uri: task.uri }, position: { line: 0, character: 0 } } });
    expect(await eventually(() => received(task.logFile, 'textDocument/hover').length === 1)).toBe(true);
    client.control({ control: 'release', reason: 'stop' });
    expect(await client.waitFor((f) => f.id === 'slow')).toMatchObject({ error: { code: -32800 } });
    expect(await client.waitFor((f) => f.status === 'released')).toEqual({ status: 'released', reason: 'stop' });
    // The fake answers the hover (after its delay) before it answers shutdown, so the late answer
    // reached the broker while this browser was still connected: it was dropped, not forwarded.
    const methods = readLog(task.logFile).map((l) => l.message.method);
    expect(methods.indexOf('textDocument/hover')).toBeLessThan(methods.indexOf('shutdown'));
    expect(client.frames.filter((f) => f.id === 'slow')).toHaveLength(1);
  });
});

describe('backend shutdown', () => {
  it('ends every lease (attached or detached) before the task hosts stop: browsers get 1001, servers are reaped, nothing is left', async () => {
    const own = await startLeaseBackend();
    const [a, b] = [await fakeKotlinTask(own, script, 'shutdown-a'), await fakeKotlinTask(own, script, 'shutdown-b')];
    tasks.push(a, b);
    const attached = new LeaseClient(own.url, a.sessionId, 'kotlin');
    await attached.initialize();
    const detached = new LeaseClient(own.url, b.sessionId, 'kotlin');
    await detached.initialize();
    await detached.leave();
    expect(await eventually(() => own.backend.leases.metrics().detached === 1)).toBe(true);
    const servers = [...serverPids(a.logFile), ...serverPids(b.logFile)];
    expect(await eventually(() => spawned(a) !== undefined && spawned(b) !== undefined)).toBe(true);
    const descendantsOf = [spawned(a), spawned(b)] as number[];

    await own.close();
    expect(await attached.closed).toMatchObject({ code: 1001 });
    expect(own.backend.leases.list()).toEqual([]);
    expect(own.backend.leases.metrics()).toMatchObject({ leases: 0, releasedTotal: expect.objectContaining({ shutdown: 2 }) });
    expect([...servers, ...descendantsOf].filter(isAlive)).toEqual([]);
  });
});
