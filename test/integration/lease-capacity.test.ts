import { afterAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import {
  descendants,
  eventually,
  fakeKotlinTask,
  isAlive,
  LeaseClient,
  received,
  removeTask,
  sample,
  serverPids,
  shutdownTail,
  startLeaseBackend,
  type FakeTask,
  type LeaseBackend,
} from './lease-support.js';

/** Lease capacity (KANDEV_LSP_MAX_CONNECTIONS): attached or detached leases hold slots (S27, C08). */
const script: FakeScript = { capabilities: { hoverProvider: true } };
const tasks: FakeTask[] = [];

afterAll(() => tasks.forEach(removeTask));

async function task(stack: LeaseBackend, name: string): Promise<FakeTask> {
  const t = await fakeKotlinTask(stack, script, name);
  tasks.push(t);
  return t;
}

async function readyLease(stack: LeaseBackend, t: FakeTask, hint?: string): Promise<{ client: LeaseClient; lease: string }> {
  const client = new LeaseClient(stack.url, t.sessionId, 'kotlin', hint);
  const { ready } = await client.initialize();
  return { client, lease: ready.lease as string };
}

describe('a limit of one lease', () => {
  let stack: LeaseBackend;
  afterAll(async () => stack?.close());

  it('S27 with every lease attached another editor gets 4005 before any server starts; reattaching the retained lease stays admissible', async () => {
    stack = await startLeaseBackend({ KANDEV_LSP_MAX_CONNECTIONS: '1' });
    const [a, b] = [await task(stack, 's27-a'), await task(stack, 's27-b')];
    const first = await readyLease(stack, a);
    const aServers = descendants(a.agentctlPid);

    // Another session's editor: refused before its task host is asked for anything.
    const other = new LeaseClient(stack.url, b.sessionId, 'kotlin');
    expect(await other.closed).toMatchObject({ code: 4005 });
    // A second window on the same session and language: also refused, no second server.
    const second = new LeaseClient(stack.url, a.sessionId, 'kotlin');
    expect(await second.closed).toMatchObject({ code: 4005 });
    // A duplicated tab's copied hint names an attached lease: it never steals it (C10).
    const duplicate = new LeaseClient(stack.url, a.sessionId, 'kotlin', first.lease);
    expect(await duplicate.closed).toMatchObject({ code: 4005 });
    expect(first.client.ws.readyState).toBe(first.client.ws.OPEN);
    expect(serverPids(b.logFile)).toEqual([]);
    expect(descendants(b.agentctlPid)).toEqual([]);
    expect(serverPids(a.logFile)).toHaveLength(1);
    expect(descendants(a.agentctlPid)).toEqual(aServers);
    expect(stack.backend.leases.pins.isPinned(b.sessionId)).toBe(false);
    expect(sample(await stack.metrics(), 'kandev_lsp_leases_refused_total')).toBe(3);

    // At the cap, the tab that owns the lease comes back: reattaching costs no slot.
    await first.client.leave();
    const back = new LeaseClient(stack.url, a.sessionId, 'kotlin', first.lease);
    expect(await back.resume()).toMatchObject({ resumed: true, lease: first.lease });
    expect(received(a.logFile, 'initialize')).toHaveLength(1);
    await back.leave();
  });
});

describe('a limit of two leases', () => {
  let stack: LeaseBackend;
  afterAll(async () => stack?.close());

  it('C08 a new server evicts the oldest detached lease (shut down and reaped); with every lease attached the editor gets 4005', async () => {
    stack = await startLeaseBackend({ KANDEV_LSP_MAX_CONNECTIONS: '2' });
    const [a, b, c] = [await task(stack, 'c08-a'), await task(stack, 'c08-b'), await task(stack, 'c08-c')];
    const leaseA = await readyLease(stack, a);
    const leaseB = await readyLease(stack, b);
    const [pidA] = serverPids(a.logFile);
    const [pidB] = serverPids(b.logFile);
    await leaseA.client.leave(); // detached first: the oldest
    await leaseB.client.leave();
    expect(await eventually(() => stack.backend.leases.metrics().detached === 2)).toBe(true);

    const leaseC = await readyLease(stack, c);
    expect(await eventually(() => !isAlive(pidA as number))).toBe(true);
    expect(['shutdown', 'shutdown,exit']).toContain(shutdownTail(a.logFile));
    expect(isAlive(pidB as number)).toBe(true);
    expect(received(b.logFile, 'shutdown')).toEqual([]);
    const metrics = await stack.metrics();
    expect(sample(metrics, 'kandev_lsp_leases_evicted_total')).toBe(1);
    expect(sample(metrics, 'kandev_lsp_leases_released_total{reason="eviction"}')).toBe(1);
    expect(sample(metrics, 'kandev_lsp_leases')).toBe(2);

    // The evicted lease's hint starts nothing old: A's next editor would need a new slot.
    const backB = new LeaseClient(stack.url, b.sessionId, 'kotlin', leaseB.lease);
    await backB.resume();
    const refused = new LeaseClient(stack.url, a.sessionId, 'kotlin', leaseA.lease);
    expect(await refused.closed).toMatchObject({ code: 4005 });
    expect(serverPids(a.logFile)).toEqual([pidA]);

    // /metrics never labels by task, session, lease or language.
    for (const id of [a.taskId, a.sessionId, leaseA.lease, leaseB.lease, leaseC.lease, 'kotlin']) expect(metrics).not.toContain(id);
    await backB.leave();
    await leaseC.client.leave();
  });
});
