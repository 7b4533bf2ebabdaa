import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive, startTestBackend, type TestBackend } from './backend-support.js';

/** Renaming and deleting tasks through the real backend, with a real agentctl behind a session. */
let stack: TestBackend;
const root = mkdtempSync(join(tmpdir(), 'kandev-backend-tasks-'));
const workspace = join(root, 'workspace');

beforeAll(async () => {
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'main.ts'), 'export const a = 1;\n');
  stack = await startTestBackend();
});

afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('task rename and delete', () => {
  it('deleting a task stops its running sessions first: agentctl is reaped, the history is gone', async () => {
    const task = await stack.api('POST', '/api/tasks', { title: 'to delete', executor: 'local_pc', repositories: [{ path: workspace }] });
    const first = await stack.api('POST', `/api/tasks/${task.json.id}/sessions`);
    const second = await stack.api('POST', `/api/tasks/${task.json.id}/sessions`);
    expect([first.json.status, second.json.status]).toEqual(['running', 'running']);
    const pids = [first, second].map((s) => stack.backend.sessions.liveHost(s.json.id)?.pid as number);
    expect(pids.every(isAlive)).toBe(true);

    const deleted = await stack.api('DELETE', `/api/tasks/${task.json.id}`);
    expect(deleted.status).toBe(200);
    expect([...deleted.json.sessionsStopped].sort()).toEqual([first.json.id, second.json.id].sort());
    // The DELETE answers only after each task host exited and was reaped.
    expect(pids.some(isAlive)).toBe(false);
    expect(stack.backend.sessions.runningCount()).toBe(0);
    expect(await stack.api('GET', `/api/sessions/${first.json.id}`)).toMatchObject({ status: 404 });
    expect(await stack.api('GET', `/api/sessions/${first.json.id}/files?path=`)).toMatchObject({ status: 404 });
  });

  it('renaming a task keeps its running session and its workspace', async () => {
    const task = await stack.api('POST', '/api/tasks', { title: 'old name', executor: 'local_pc', repositories: [{ path: workspace }] });
    const session = await stack.api('POST', `/api/tasks/${task.json.id}/sessions`);
    const renamed = await stack.api('PATCH', `/api/tasks/${task.json.id}`, { title: 'new name' });
    expect(renamed).toMatchObject({
      status: 200,
      json: { title: 'new name', repositories: [{ path: workspace }], sessions: [{ id: session.json.id, status: 'running' }] },
    });
    expect(await stack.api('GET', `/api/sessions/${session.json.id}/files?path=`)).toMatchObject({ status: 200 });
    await stack.api('POST', `/api/sessions/${session.json.id}/stop`);
  });

  it('refuses a task whose folder does not exist or is a file, saying which', async () => {
    const missing = await stack.api('POST', '/api/tasks', { title: 'x', executor: 'local_pc', repositories: [{ path: join(root, 'nope') }] });
    expect(missing).toMatchObject({ status: 400, json: { invalid: { reason: 'path_missing', index: 0 } } });
    const file = await stack.api('POST', '/api/tasks', { title: 'x', executor: 'local_pc', repositories: [{ path: join(workspace, 'main.ts') }] });
    expect(file).toMatchObject({ status: 400, json: { invalid: { reason: 'path_not_directory', index: 0 } } });
  });
});
