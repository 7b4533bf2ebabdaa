import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { CloseCode, sessionGitHeadPath, type GitState, type WorkspaceEventFrame } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsClient } from '../support/eventsClient.js';
import { eventually, startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * The live workspace's push stream through the real backend and agentctl: the access rules of every
 * route, the frames a page gets (watch, git, files), the HEAD text for the diff editor, and a page
 * that only listens never keeping a task host from its idle stop.
 */
const MINUTE = 60_000;
const clock = new ManualClock();
let stack: LeaseBackend;
const root = mkdtempSync(join(tmpdir(), 'kandev-live-events-'));

beforeAll(async () => {
  stack = await startLeaseBackend({ KANDEV_TASK_HOST_IDLE_MS: String(30 * MINUTE) }, { clock });
});

afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });
}

/** A git workspace with one commit, then one file modified and one untracked. */
async function gitSession(name: string): Promise<{ sessionId: string; dir: string }> {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/a.ts'), 'one\ntwo\n');
  writeFileSync(join(dir, 'README.md'), 'readme\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'init');
  writeFileSync(join(dir, 'src/a.ts'), 'one\nTWO\nthree\n');
  writeFileSync(join(dir, 'notes.txt'), 'a\nb\n');
  const task = await stack.api('POST', '/api/tasks', { title: name, executor: 'local_pc', repositories: [{ path: dir }] });
  return { sessionId: await startSession(stack, task.json.id), dir };
}

type GitFrame = Extract<WorkspaceEventFrame, { type: 'git' }>;
const gitFrame = (f: WorkspaceEventFrame): f is GitFrame => f.type === 'git';

describe('the events stream: access', () => {
  it('is refused without the access token (401), from a foreign Origin (403), for an unknown session (404)', async () => {
    const { sessionId } = await gitSession('access');
    expect(await new EventsClient(stack.url, sessionId, { headers: {} }).opened).toEqual({ status: 401 });
    expect(await new EventsClient(stack.url, sessionId, { origin: 'https://evil.example' }).opened).toEqual({ status: 403 });
    expect(await new EventsClient(stack.url, 'no-such-session').opened).toEqual({ status: 404 });
    const page = new EventsClient(stack.url, sessionId);
    expect(await page.opened).toEqual({});
    page.close();
  });

  it('a stopped session is accepted and closed with 4002', async () => {
    const { sessionId } = await gitSession('stopped');
    await stack.api('POST', `/api/sessions/${sessionId}/stop`);
    const page = new EventsClient(stack.url, sessionId);
    expect(await page.closed).toBe(CloseCode.Unavailable);
  });
});

describe('the events stream: what a page hears', () => {
  it('watch first, then the git state against HEAD; a new file arrives as a files frame and the git state follows', async () => {
    const { sessionId, dir } = await gitSession('frames');
    const page = new EventsClient(stack.url, sessionId);
    const state = (await page.waitFor<GitFrame>(gitFrame)).state as Extract<GitState, { available: true }>;
    expect(page.frames[0]).toEqual({ type: 'watch', mode: 'native' });
    expect(state).toMatchObject({ available: true, branch: 'main' });
    expect(state.head).toMatch(/^[0-9a-f]{40}$/);
    expect(state.files).toEqual([
      { path: 'src/a.ts', status: 'modified', added: 2, deleted: 1 },
      { path: 'notes.txt', status: 'untracked', added: 2, deleted: 0 },
    ]);

    writeFileSync(join(dir, 'src/new.ts'), 'export {};\n');
    const files = await page.waitFor<Extract<WorkspaceEventFrame, { type: 'files' }>>((f) => f.type === 'files');
    expect(files.changes).toContainEqual({ kind: 'created', path: 'src/new.ts', directory: false });
    const next = await page.waitFor((f) => gitFrame(f) && JSON.stringify(f.state).includes('src/new.ts'));
    expect((next as Extract<WorkspaceEventFrame, { type: 'git' }>).state).toMatchObject({ available: true });

    // A second page of the same session shares the upstream and starts with the latest state.
    const second = new EventsClient(stack.url, sessionId);
    await second.waitFor(gitFrame);
    expect(second.frames.slice(0, 2).map((f) => f.type)).toEqual(['watch', 'git']);
    expect(JSON.stringify(second.frames[1])).toContain('src/new.ts');
    page.close();
    second.close();
  });

  it('a commit made on the task host (HEAD, index and refs move) reaches the page as a clean git state', async () => {
    const { sessionId, dir } = await gitSession('commit');
    const page = new EventsClient(stack.url, sessionId);
    const before = (await page.waitFor<GitFrame>(gitFrame)).state as Extract<GitState, { available: true }>;
    expect(before.files.length).toBe(2);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'second');
    const after = await page.waitFor((f) => gitFrame(f) && f.state.available && f.state.files.length === 0);
    expect((after as Extract<WorkspaceEventFrame, { type: 'git' }>).state).toMatchObject({ available: true, branch: 'main' });
    expect(JSON.stringify(after)).not.toContain(before.head as string);
    page.close();
  });

  it('a non-git workspace says so', async () => {
    const dir = join(root, 'plain');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.txt'), 'a');
    const task = await stack.api('POST', '/api/tasks', { title: 'plain', executor: 'local_pc', repositories: [{ path: dir }] });
    const sessionId = await startSession(stack, task.json.id);
    const page = new EventsClient(stack.url, sessionId);
    expect((await page.waitFor<GitFrame>(gitFrame)).state).toEqual({ available: false, reason: 'not_a_repository' });
    page.close();
  });

  it('the HEAD text of a file for the diff editor; 404 when HEAD has no such file; 403 outside the workspace', async () => {
    const { sessionId } = await gitSession('head');
    expect(await stack.api('GET', sessionGitHeadPath(sessionId, 'src/a.ts'))).toEqual({ status: 200, json: { content: 'one\ntwo\n' } });
    expect((await stack.api('GET', sessionGitHeadPath(sessionId, 'notes.txt'))).status).toBe(404);
    expect((await stack.api('GET', sessionGitHeadPath(sessionId, '../etc/passwd'))).json.error.code).toBe('path_outside_workspace');
  });
});

describe('the events stream and idle task hosts', () => {
  it('a page that only listens does not hold the task host: it is stopped when idle and the page hears 4002', async () => {
    const { sessionId } = await gitSession('idle');
    // The page opens a minute before the idle stop is due: were listening a use, it would move it.
    clock.advance(29 * MINUTE);
    const page = new EventsClient(stack.url, sessionId);
    await page.waitFor<GitFrame>(gitFrame);
    expect(stack.backend.sessions.get(sessionId)?.status).toBe('running');
    clock.advance(MINUTE);
    expect(await page.closed).toBe(CloseCode.Unavailable);
    // The stop was the reclaimer's (the task host goes down, its stream with it), never the page's.
    expect(await eventually(() => stack.backend.sessions.get(sessionId)?.status === 'stopped')).toBe(true);
  });
});
