import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import {
  eventually,
  fakeKotlinTask,
  isAlive,
  LeaseClient,
  removeTask,
  serverPids,
  startLeaseBackend,
  type FakeTask,
  type LeaseBackend,
} from './lease-support.js';

/**
 * Idle task-host reclaim at the real backend on an injected clock (docs/architecture.md section 5): a live lease
 * pins its task host; once the last lease ends (here, the one-hour detached expiry) the task host
 * may be reclaimed after the idle time, and that stop reaps agentctl and everything it runs.
 */
const MINUTE = 60_000;
const clock = new ManualClock();
let stack: LeaseBackend;
const tasks: FakeTask[] = [];

beforeAll(async () => {
  stack = await startLeaseBackend({ KANDEV_TASK_HOST_IDLE_MS: String(30 * MINUTE) }, { clock });
});

afterAll(async () => {
  await stack?.close();
  tasks.forEach(removeTask);
});

describe('idle task-host reclaim', () => {
  it('C07 a task host pinned by a detached lease is kept; after expiry it is reclaimed once idle, with its processes reaped', async () => {
    const task = await fakeKotlinTask(stack, { capabilities: { hoverProvider: true } }, 'c07-reclaim');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await client.initialize();
    await client.leave();
    const pid = serverPids(task.logFile)[0] as number;

    // Detached but within the hour: the lease pins the task host far past the idle time.
    clock.advance(59 * MINUTE);
    await new Promise((r) => setTimeout(r, 200));
    expect(stack.backend.sessions.liveHost(task.sessionId)).toBeDefined();
    expect(isAlive(task.agentctlPid)).toBe(true);

    // Expiry releases the lease and unpins; the idle time then runs from there.
    clock.advance(MINUTE);
    expect(await eventually(() => !isAlive(pid))).toBe(true);
    expect(stack.backend.leases.pins.isPinned(task.sessionId)).toBe(false);
    clock.advance(29 * MINUTE);
    await new Promise((r) => setTimeout(r, 200));
    expect(stack.backend.sessions.liveHost(task.sessionId)).toBeDefined();

    clock.advance(MINUTE);
    expect(await eventually(() => stack.backend.sessions.get(task.sessionId)?.status === 'stopped')).toBe(true);
    expect(await eventually(() => !isAlive(task.agentctlPid))).toBe(true);
    // C14: the reclaimed session admits no stale lease; the browser is told it is unavailable.
    const late = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    expect((await late.readyOrClose()).close?.code).toBe(4002);
  });
});
