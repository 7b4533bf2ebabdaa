import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, fakeKotlinTask, LeaseClient, received, removeTask, startLeaseBackend, type FakeTask, type LeaseBackend } from './lease-support.js';

/**
 * The server hears of the disk with no browser attached: its file watchers stay with the lease and
 * agentctl sends `workspace/didChangeWatchedFiles` itself, matched against the registered patterns
 * and kinds. The fake server's log is the witness of what it received.
 */
let stack: LeaseBackend;
let task: FakeTask;

const registration = {
  id: 'watch-1',
  method: 'workspace/didChangeWatchedFiles',
  registerOptions: {
    watchers: [
      { globPattern: '**/*.kt' },
      // Creations and deletions only (kind 1 | 4).
      { globPattern: '**/conf/*.json', kind: 5 },
    ],
  },
};

beforeAll(async () => {
  stack = await startLeaseBackend();
  task = await fakeKotlinTask(
    stack,
    { rules: { initialized: [{ request: 'client/registerCapability', params: { registrations: [registration] } }] } },
    'live-detached',
  );
});

afterAll(async () => {
  await stack?.close();
  if (task) removeTask(task);
});

type Change = { uri: string; type: number };
const changes = (): Change[] => received(task.logFile, 'workspace/didChangeWatchedFiles').flatMap((m) => m.params.changes as Change[]);
const heard = (uri: string, type: number) => changes().some((c) => c.uri === uri && c.type === type);

describe('live workspace: the server hears of disk changes while no browser is attached', () => {
  it('registered watchers stay with the detached lease; creations, changes, renames and deletes reach the server, by pattern and kind', async () => {
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    const { ready } = await client.initialize({ workspace: { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } } });
    const root = ready.workspaceUri as string;
    const dir = ready.workspacePath as string;
    // The browser accepts the server's registration (LeaseClient answers forwarded requests with null).
    await client.waitFor((f) => f.method === 'client/registerCapability');
    await client.leave();
    expect(await eventually(() => stack.backend.leases.list().some((l) => l.id === ready.lease && l.detachedAt !== undefined))).toBe(true);

    writeFileSync(join(dir, 'Other.kt'), 'class Other\n');
    writeFileSync(join(dir, 'notes.txt'), 'not watched\n');
    expect(await eventually(() => heard(`${root}/Other.kt`, 1))).toBe(true);
    writeFileSync(join(dir, 'Main.kt'), 'fun main() = println("changed on disk")\n');
    expect(await eventually(() => heard(`${root}/Main.kt`, 2))).toBe(true);
    renameSync(join(dir, 'Other.kt'), join(dir, 'Renamed.kt'));
    expect(await eventually(() => heard(`${root}/Renamed.kt`, 1))).toBe(true);
    expect(heard(`${root}/Other.kt`, 3)).toBe(true);
    rmSync(join(dir, 'Main.kt'));
    expect(await eventually(() => heard(`${root}/Main.kt`, 3))).toBe(true);
    // kind 5: a JSON under conf/ is heard created and deleted, never changed.
    mkdirSync(join(dir, 'conf'));
    writeFileSync(join(dir, 'conf/a.json'), '{}');
    expect(await eventually(() => heard(`${root}/conf/a.json`, 1))).toBe(true);
    // The change must be seen by the watcher before anything else happens to the file: written and
    // removed in one coalescing window, it would be folded into the deletion whatever the kind
    // filter does. A .kt file created after it is heard no earlier than the change would be (same
    // batch or a later one), so once it is heard the change was matched and, kind 5, dropped.
    writeFileSync(join(dir, 'conf/a.json'), '{"changed":true}');
    writeFileSync(join(dir, 'AfterChange.kt'), 'class AfterChange\n');
    expect(await eventually(() => heard(`${root}/AfterChange.kt`, 1))).toBe(true);
    expect(heard(`${root}/conf/a.json`, 2)).toBe(false);
    rmSync(join(dir, 'conf/a.json'));
    expect(await eventually(() => heard(`${root}/conf/a.json`, 3))).toBe(true);
    expect(heard(`${root}/conf/a.json`, 2)).toBe(false);
    expect(changes().some((c) => c.uri.endsWith('/notes.txt'))).toBe(false);
  }, 60_000);
});
