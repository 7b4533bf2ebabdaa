import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import {
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

/**
 * The broker's deadlines at the gateway, on an injected clock: the real backend, agentctl and
 * server, but the one-hour detached deadline and the 30 s request budget pass by `advance`, never
 * by waiting. (The two-minute editor-idle timer is the browser's: see the web client's tests.)
 */
const MINUTE = 60_000;
const script: FakeScript = {
  capabilities: { hoverProvider: true },
  rules: { 'textDocument/hover': [{ delayMs: 2_000 }, { respond: { contents: 'slow' } }] },
};

let stack: LeaseBackend;
const clock = new ManualClock();
const tasks: FakeTask[] = [];

beforeAll(async () => {
  stack = await startLeaseBackend({}, { clock });
});

afterAll(async () => {
  await stack?.close();
  tasks.forEach(removeTask);
});

async function detachedLease(name: string): Promise<{ task: FakeTask; lease: string; pid: number }> {
  const task = await fakeKotlinTask(stack, script, name);
  tasks.push(task);
  const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
  const { ready } = await client.initialize();
  await client.leave();
  expect(await eventually(() => stack.backend.leases.list().some((l) => l.id === ready.lease && l.detachedAt !== undefined))).toBe(true);
  return { task, lease: ready.lease as string, pid: serverPids(task.logFile)[0] as number };
}

describe('the one-hour detached deadline', () => {
  it('C07 a lease detached for an hour is released: its server is shut down, reaped and its task host unpinned; the next editor starts fresh', async () => {
    const { task, lease, pid } = await detachedLease('c07-expiry');
    clock.advance(59 * MINUTE);
    await new Promise((r) => setTimeout(r, 200));
    expect(received(task.logFile, 'shutdown')).toEqual([]);
    expect(stack.backend.leases.pins.isPinned(task.sessionId)).toBe(true);

    clock.advance(MINUTE);
    expect(await eventually(() => !isAlive(pid))).toBe(true);
    expect(['shutdown', 'shutdown,exit']).toContain(shutdownTail(task.logFile));
    expect(stack.backend.leases.pins.isPinned(task.sessionId)).toBe(false);
    expect(sample(await stack.metrics(), 'kandev_lsp_leases_released_total{reason="expiry"}')).toBe(1);

    const next = new LeaseClient(stack.url, task.sessionId, 'kotlin', lease);
    const { ready } = await next.initialize();
    expect(ready).toMatchObject({ resumed: false });
    expect(await eventually(() => serverPids(task.logFile).length === 2)).toBe(true);
    await next.leave();
  });

  it('C07 reattaching before the deadline cancels it: no later hour ends the lease', async () => {
    const { task, lease, pid } = await detachedLease('c07-reattach');
    clock.advance(30 * MINUTE);
    const back = new LeaseClient(stack.url, task.sessionId, 'kotlin', lease);
    await back.resume();
    clock.advance(3 * 60 * MINUTE);
    await new Promise((r) => setTimeout(r, 200));
    expect(received(task.logFile, 'shutdown')).toEqual([]);
    expect(isAlive(pid)).toBe(true);
    // Detached again, the deadline counts from the new detach, not the first one.
    await back.leave();
    expect(await eventually(() => stack.backend.leases.list().some((l) => l.id === lease && l.detachedAt !== undefined))).toBe(true);
    clock.advance(59 * MINUTE);
    await new Promise((r) => setTimeout(r, 200));
    expect(received(task.logFile, 'shutdown')).toEqual([]);
    clock.advance(MINUTE);
    expect(await eventually(() => !isAlive(pid))).toBe(true);
    expect(['shutdown', 'shutdown,exit']).toContain(shutdownTail(task.logFile));
  });
});

describe('the 30 s browser request budget', () => {
  it('a request the server does not answer in 30 s is cancelled on the server and fails in the browser with RequestCancelled', async () => {
    const task = await fakeKotlinTask(stack, script, 'request-budget');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await client.initialize();
    client.send({ jsonrpc: '2.0', id: 'slow', method: 'textDocument/hover', params: { textDocument: { uri: task.uri }, position: { line: 0, character: 0 } } });
    expect(await eventually(() => received(task.logFile, 'textDocument/hover').length === 1)).toBe(true);
    clock.advance(30_000);
    expect(await client.waitFor((f) => f.id === 'slow')).toMatchObject({ error: { code: -32800 } });
    expect(await eventually(() => received(task.logFile, '$/cancelRequest').length === 1)).toBe(true);
    expect(received(task.logFile, '$/cancelRequest')[0]?.params).toEqual({ id: received(task.logFile, 'textDocument/hover')[0]?.id });
    // The server's late answer is dropped: one reply only, the broker's.
    await client.request('textDocument/hover', { textDocument: { uri: task.uri }, position: { line: 0, character: 1 } }, 'after');
    expect(client.frames.filter((f) => f.id === 'slow')).toHaveLength(1);
    await client.leave();
  });
});
