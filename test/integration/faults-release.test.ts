/**
 * `released` means reaped (docs/architecture.md sections 3 and 4): the broker answers a release only after
 * agentctl reported the server's whole tree gone. Checked AT THE MOMENT `released` arrives, on a
 * tree that takes the slow path: descendants that ignore SIGTERM (one in the server's process
 * group, one in its own session) and one more in its own session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import {
  aliveWhen,
  eventually,
  fakeKotlinTask,
  isAlive,
  LeaseClient,
  readLog,
  removeTask,
  shutdownTail,
  startLeaseBackend,
  type FakeTask,
  type LeaseBackend,
} from './lease-support.js';

const script: FakeScript = {
  capabilities: { hoverProvider: true },
  onStart: [
    { spawnDescendant: { ignoreSigterm: true } },
    { spawnDescendant: { detached: true, ignoreSigterm: true } },
    { spawnDescendant: { detached: true } },
  ],
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

function tree(task: FakeTask): number[] {
  const log = readLog(task.logFile);
  return [...new Set(log.map((l) => l.pid)), ...log.flatMap((l) => ('spawned' in l.message ? [l.message.spawned as number] : []))];
}

describe('released after reaping', () => {
  it.each(['stop', 'editor_idle'] as const)(
    'C06 a release (%s) is answered only when no process of the server tree runs, and the server read exit first',
    async (reason) => {
      const task = await fakeKotlinTask(stack, script, `faults-release-${reason}`);
      tasks.push(task);
      const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
      await client.initialize();
      expect(await eventually(() => tree(task).length === 4)).toBe(true);
      const pids = tree(task);
      expect(pids.filter(isAlive)).toEqual(pids);

      const atReleased = aliveWhen(
        client,
        (f) => f.status === 'released',
        () => pids,
      );
      client.control({ control: 'release', reason });
      expect(await atReleased).toEqual([]);
      expect(await client.closed).toMatchObject({ code: 1000 });
      // The server had its moment to act on `exit` before agentctl reaped it.
      expect(shutdownTail(task.logFile)).toBe('shutdown,exit');
    },
  );
});
