import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../support/access.js';
import { childPids, eventually, isAlive, startTestBackend, type TestBackend } from './backend-support.js';

/** Task/session lifecycle and the files API, through the real backend and a real agentctl. */
let stack: TestBackend;
const root = mkdtempSync(join(tmpdir(), 'kandev-backend-sessions-'));
const workspace = join(root, 'workspace');

beforeAll(async () => {
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'main.ts'), 'export const answer = 42;\n');
  writeFileSync(join(workspace, 'README.md'), '# demo\nfind the needle here\n');
  writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET-7f3a\n');
  symlinkSync(join(root, 'secret.txt'), join(workspace, 'escape.txt'));
  stack = await startTestBackend();
});

afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

async function startSession(): Promise<{ taskId: string; sessionId: string; pid: number }> {
  const task = await stack.api('POST', '/api/tasks', { title: 'files', executor: 'local_pc', repositories: [{ path: workspace }] });
  expect(task.status).toBe(201);
  const session = await stack.api('POST', `/api/tasks/${task.json.id}/sessions`);
  expect(session).toMatchObject({ status: 201, json: { taskId: task.json.id, status: 'running', workspacePath: workspace } });
  const pid = stack.backend.sessions.liveHost(session.json.id)?.pid as number;
  return { taskId: task.json.id, sessionId: session.json.id, pid };
}

async function metric(name: string): Promise<string | undefined> {
  const text = await (await fetch(`${stack.url}/metrics`, { headers: authHeaders() })).text();
  return text
    .split('\n')
    .find((line) => line.startsWith(`${name} `))
    ?.split(' ')[1];
}

describe('session lifecycle with a real agentctl', () => {
  it('starts agentctl as a child, shows the session running, and a stop reaps it', async () => {
    const { taskId, sessionId, pid } = await startSession();
    expect(childPids(process.pid, 'agentctl/dist/agentctl.mjs')).toContain(pid);
    expect(await stack.api('GET', `/api/sessions/${sessionId}`)).toMatchObject({ status: 200, json: { id: sessionId, status: 'running' } });
    expect((await stack.api('GET', `/api/tasks/${taskId}`)).json.sessions).toEqual([expect.objectContaining({ id: sessionId, status: 'running' })]);
    expect(await metric('kandev_sessions_running')).toBe('1');

    const stopped = await stack.api('POST', `/api/sessions/${sessionId}/stop`);
    expect(stopped).toMatchObject({ status: 200, json: { id: sessionId, status: 'stopped' } });
    // The stop answers only once agentctl exited and was reaped: its pid is gone from /proc now.
    expect(isAlive(pid)).toBe(false);
    expect(await metric('kandev_sessions_running')).toBe('0');
    expect(await stack.api('POST', `/api/sessions/${sessionId}/stop`)).toMatchObject({ status: 200, json: { status: 'stopped' } });
    expect(await stack.api('GET', `/api/sessions/${sessionId}/files?path=`)).toMatchObject({ status: 409, json: { error: { code: 'session_not_running' } } });
  });

  it('marks a session failed when its agentctl dies on its own, and routes nothing to it', async () => {
    const { sessionId, pid } = await startSession();
    process.kill(pid, 'SIGKILL');
    expect(await eventually(() => stack.backend.sessions.get(sessionId)?.status === 'failed')).toBe(true);
    expect((await stack.api('GET', `/api/sessions/${sessionId}`)).json.error).toMatch(/exited unexpectedly \(signal SIGKILL\)/);
    expect(await stack.api('GET', `/api/sessions/${sessionId}/file?path=README.md`)).toMatchObject({ status: 409 });
  });

  it('fails the session with the reason when agentctl cannot start, leaving no process', async () => {
    const broken = await startTestBackend({ KANDEV_AGENTCTL_COMMAND: JSON.stringify(['node', '-e', 'console.error("no workspace"); process.exit(4)']) });
    try {
      const task = await broken.api('POST', '/api/tasks', { title: 'x', executor: 'local_pc', repositories: [{ path: workspace }] });
      const session = await broken.api('POST', `/api/tasks/${task.json.id}/sessions`);
      expect(session).toMatchObject({ status: 502, json: { error: { code: 'task_host_unavailable' }, session: { status: 'failed' } } });
      expect(session.json.session.error).toMatch(/exited before listening.*no workspace/);
    } finally {
      await broken.close();
    }
  });
});

describe('files through the backend', () => {
  let sessionId: string;
  beforeAll(async () => {
    sessionId = (await startSession()).sessionId;
  });

  it('lists folders first and reads a file with its version', async () => {
    const list = await stack.api('GET', `/api/sessions/${sessionId}/files?path=`);
    expect(list.status).toBe(200);
    expect(list.json.entries.slice(0, 2)).toEqual([
      { name: 'src', path: 'src', type: 'directory' },
      { name: 'README.md', path: 'README.md', type: 'file' },
    ]);
    const file = await stack.api('GET', `/api/sessions/${sessionId}/file?path=src/main.ts`);
    expect(file).toMatchObject({ status: 200, json: { content: 'export const answer = 42;\n' } });
    expect(file.json.version).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes with a base version, refuses a stale one with 409, and loses nothing', async () => {
    const path = `/api/sessions/${sessionId}/file?path=src/main.ts`;
    const base = (await stack.api('GET', path)).json.version as string;
    const first = await stack.api('PUT', path, { content: 'export const answer = 43;\n', baseVersion: base });
    expect(first.status).toBe(200);
    expect(first.json.version).not.toBe(base);

    // A second editor still holding the old version: refused, and the first write survives.
    const stale = await stack.api('PUT', path, { content: 'export const answer = 0;\n', baseVersion: base });
    expect(stale).toMatchObject({ status: 409, json: { error: { code: 'conflict' }, currentVersion: first.json.version } });
    expect(readFileSync(join(workspace, 'src/main.ts'), 'utf8')).toBe('export const answer = 43;\n');
    expect(await stack.api('GET', path)).toMatchObject({ json: { content: 'export const answer = 43;\n', version: first.json.version } });
  });

  it('creates a new file without a base version', async () => {
    const created = await stack.api('PUT', `/api/sessions/${sessionId}/file?path=src/new.ts`, { content: 'export {};\n' });
    expect(created.status).toBe(200);
    expect(readFileSync(join(workspace, 'src/new.ts'), 'utf8')).toBe('export {};\n');
  });

  it('refuses a body that is not a write request before it reaches the task host', async () => {
    expect(await stack.api('PUT', `/api/sessions/${sessionId}/file?path=src/x.ts`, { content: 1 })).toMatchObject({ status: 400 });
    expect(existsSync(join(workspace, 'src/x.ts'))).toBe(false);
  });

  it.each([
    ['..', '../secret.txt'],
    ['an absolute path', join(root, 'secret.txt')],
    ['a symlink that leaves the workspace', 'escape.txt'],
  ])('refuses %s with 403 and reads nothing', async (_label, target) => {
    const read = await stack.api('GET', `/api/sessions/${sessionId}/file?path=${encodeURIComponent(target)}`);
    expect(read).toMatchObject({ status: 403, json: { error: { code: 'path_outside_workspace' } } });
    expect(JSON.stringify(read.json)).not.toContain('TOP-SECRET');
  });

  it('refuses a write outside the workspace with 403 and writes nothing', async () => {
    const write = await stack.api('PUT', `/api/sessions/${sessionId}/file?path=${encodeURIComponent('../planted.txt')}`, { content: 'x' });
    expect(write).toMatchObject({ status: 403, json: { error: { code: 'path_outside_workspace' } } });
    expect(existsSync(join(root, 'planted.txt'))).toBe(false);
    const viaLink = await stack.api('PUT', `/api/sessions/${sessionId}/file?path=escape.txt`, { content: 'overwritten' });
    expect(viaLink.status).toBe(403);
    expect(readFileSync(join(root, 'secret.txt'), 'utf8')).toBe('TOP-SECRET-7f3a\n');
  });

  it('searches the workspace', async () => {
    const search = await stack.api('GET', `/api/sessions/${sessionId}/search?q=needle`);
    expect(search).toMatchObject({ status: 200, json: { hits: [{ path: 'README.md', line: 2, column: 10 }] } });
  });
});

describe('backend shutdown', () => {
  it('stops every session and reaps its agentctl', async () => {
    const other = await startTestBackend();
    const task = await other.api('POST', '/api/tasks', { title: 'x', executor: 'local_pc', repositories: [{ path: workspace }] });
    const session = await other.api('POST', `/api/tasks/${task.json.id}/sessions`);
    const pid = other.backend.sessions.liveHost(session.json.id)?.pid as number;
    expect(isAlive(pid)).toBe(true);
    await other.close();
    expect(isAlive(pid)).toBe(false);
  });
});
