/**
 * The fault suite: faults that must keep holding, each reproduced against the real processes
 * (the backend bundle, agentctl, the fake server) and judged by its observable outcome. The relay
 * faults named by the fault suite have their own files: faults-backpressure (memory bounded by bytes),
 * faults-nesting (bounded parsing), faults-keepalive (dead peers noticed), faults-fuzz.
 * Already covered elsewhere and not repeated here: 1007/1009 on the browser hop and 16 MiB+ client
 * frames and server headers at agentctl (backend-lsp, agentctl-failures), path escapes at agentctl
 * itself (agentctl-files), agentctl reaped after a backend crash (backend-cli), C10 duplicated tab
 * (lease-continuity).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BadInputCloseCode, CloseCode } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../support/access.js';
import WebSocket from 'ws';
import { startStack } from '../support/stack.js';
import { isAlive, LeaseClient, serverPids } from './lease-support.js';
import { fakeTask, startFaultStack, type FaultStack, type FaultTask } from './faults-support.js';

const MiB = 1024 * 1024;
const tasks: FaultTask[] = [];
let stack: FaultStack;

beforeAll(async () => {
  stack = await startFaultStack({ KANDEV_LSP_MAX_CONNECTIONS: '3' });
});

afterAll(async () => {
  await stack?.stop();
  for (const task of tasks) task.remove();
});

async function task(name: string, script = {}, binaries?: string[]): Promise<FaultTask> {
  const made = await fakeTask(stack, script, name, binaries);
  tasks.push(made);
  return made;
}

/** Ends every lease of a tab with Stop, so the next test starts with free capacity. */
async function stop(tab: LeaseClient): Promise<void> {
  if (tab.ws.readyState !== WebSocket.OPEN) return;
  tab.control({ control: 'release', reason: 'stop' });
  await tab.closed;
}

describe('faults: language server and backend crashes', () => {
  it('a server killed with SIGKILL while leased is restarted by its lease (restarting 1 of 5), the lease stays and answers from the new server', async () => {
    const crashing = await task('sigkill');
    const tab = new LeaseClient(stack.url, crashing.sessionId, 'kotlin');
    const { ready } = await tab.initialize();
    await tab.request('kandev/echo', {});
    const [pid] = serverPids(crashing.logFile);
    process.kill(pid as number, 'SIGKILL');
    // Inside the crash budget a crash is never the end of the lease: the browser is told that the
    // server restarts, on the socket it has, and is handed the new server as on a reattach.
    const restarting = await tab.waitFor((f) => f.status === 'restarting');
    expect(restarting).toMatchObject({ status: 'restarting', language: 'kotlin', attempt: 1, of: 5 });
    expect(await tab.waitFor((f) => f.status === 'ready' && f.resumed === true)).toMatchObject({ lease: ready.lease, resumed: true });
    expect(tab.ws.readyState).toBe(WebSocket.OPEN);
    tab.control({ control: 'attachment-ready' });
    await tab.waitFor((f) => f.status === 'synchronized');
    await tab.request('kandev/echo', {});
    const pids = serverPids(crashing.logFile);
    expect(pids).toHaveLength(2);
    expect(pids).toContain(pid);
    await stop(tab);
  });

  it('a backend killed with SIGKILL leaves a consistent database: integrity_check is ok and a restart on the same KANDEV_HOME has the tasks and settings', async () => {
    const home = mkdtempSync(join(tmpdir(), 'kandev-faults-home-'));
    const workspace = mkdtempSync(join(tmpdir(), 'kandev-faults-ws-'));
    try {
      const first = await startStack({ KANDEV_HOME: home });
      const created = await first.createTask({ title: 'survives a crash', workspace });
      await first.startSession(created.id);
      await first.api('/api/settings', { method: 'PUT', body: { lsp_status_location: 'status_bar' } });
      first.process.kill('SIGKILL');
      await new Promise((resolve) => first.process.once('exit', resolve));
      const db = new Database(join(home, 'kandev.db'), { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();

      const second = await startStack({ KANDEV_HOME: home });
      try {
        const listed = await second.api<{ tasks: Array<{ id: string; title: string }> }>('/api/tasks');
        expect(listed.tasks.find((t) => t.id === created.id)?.title).toBe('survives a crash');
        expect(await second.api('/api/settings')).toMatchObject({ lsp_status_location: 'status_bar' });
      } finally {
        await second.stop();
      }
      await first.stop();
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('faults: oversized frames (17 MiB) on the hops', () => {
  it('a 17 MiB frame from the browser closes that socket with 1009; the lease is only detached and resumes', async () => {
    const big = await task('oversized-browser');
    const tab = new LeaseClient(stack.url, big.sessionId, 'kotlin');
    const { ready } = await tab.initialize();
    tab.notify('kandev/huge', { text: 'a'.repeat(17 * MiB) });
    expect((await tab.closed).code).toBe(BadInputCloseCode.MessageTooBig);
    const back = new LeaseClient(stack.url, big.sessionId, 'kotlin', ready.lease as string);
    expect(await back.resume()).toMatchObject({ resumed: true, lease: ready.lease });
    expect(serverPids(big.logFile)).toHaveLength(1);
    await stop(back);
  });

  it('a 17 MiB body from the server is never relayed: agentctl ends that server and the lease ends with 4009, not a restart', async () => {
    const big = await task('oversized-server', { rules: { 'kandev/huge': [{ flood: { method: 'kandev/huge', count: 1, bytes: 17 * MiB } }] } });
    const tab = new LeaseClient(stack.url, big.sessionId, 'kotlin');
    await tab.initialize();
    const [pid] = serverPids(big.logFile);
    tab.notify('kandev/huge', {});
    // agentctl refuses the body (an oversized frame closes that connection: it closes its stream
    // with 1009 and reaps the server). That is bad input on a hop, which the backend hands the
    // browser as a transport failure (4009); it is not a crash, so the lease does not restart a
    // server that would only send it again.
    expect((await tab.closed).code).toBe(CloseCode.TransportFailure);
    // The refusal is agentctl's own (its 16 MiB bound on server output), not the backend's
    // maxPayload catching a body agentctl relayed: both end in 4009 with no frame relayed.
    const agentctlLog = join(stack.home, 'logs', `agentctl-${big.sessionId}.log`);
    const refusedByAgentctl = () =>
      readFileSync(agentctlLog, 'utf8')
        .split('\n')
        .some((line) => line.includes('"server_bad_output"') && line.includes('"body_too_large"'));
    await expect.poll(refusedByAgentctl, { timeout: 10_000 }).toBe(true);
    expect(tab.frames.some((f) => f.status === 'restarting')).toBe(false);
    expect(tab.frames.some((f) => f.method === 'kandev/huge')).toBe(false);
    expect(serverPids(big.logFile)).toEqual([pid]);
    // agentctl closes its stream only after the reap: by the browser's close the server is gone.
    expect(isAlive(pid as number)).toBe(false);
  });
});

describe('faults: capacity and lease hints', () => {
  it('a storm of 12 simultaneous tabs at capacity 3: exactly 3 are admitted, the rest get 4005, and no more than 3 servers start', async () => {
    const stormy = await task('storm');
    const tabs = Array.from({ length: 12 }, () => new LeaseClient(stack.url, stormy.sessionId, 'kotlin'));
    const outcomes = await Promise.all(tabs.map((tab) => tab.readyOrClose()));
    expect(outcomes.filter((o) => o.ready).length).toBe(3);
    expect(outcomes.filter((o) => o.close).map((o) => o.close?.code)).toEqual(Array(9).fill(CloseCode.CapacityReached));
    for (const [i, tab] of tabs.entries()) if (outcomes[i]?.ready) await tab.initialize().catch(() => undefined);
    expect(serverPids(stormy.logFile).length).toBeLessThanOrEqual(3);
    for (const tab of tabs) await stop(tab);
  });

  it('a hint never steals across sessions or languages: another session and another language get leases of their own; the owner resumes its own', async () => {
    const owner = await task('hint-owner', {}, ['kotlin-lsp', 'rust-analyzer']);
    const stranger = await task('hint-stranger');
    const tab = new LeaseClient(stack.url, owner.sessionId, 'kotlin');
    const { ready } = await tab.initialize();
    const lease = ready.lease as string;
    await tab.leave();

    const otherSession = new LeaseClient(stack.url, stranger.sessionId, 'kotlin', lease);
    const otherReady = (await otherSession.readyOrClose()).ready;
    expect(otherReady).toMatchObject({ resumed: false });
    expect(otherReady?.lease).not.toBe(lease);
    await stop(otherSession);

    const otherLanguage = new LeaseClient(stack.url, owner.sessionId, 'rust', lease);
    const rustReady = (await otherLanguage.readyOrClose()).ready;
    expect(rustReady).toMatchObject({ resumed: false, language: 'rust' });
    expect(rustReady?.lease).not.toBe(lease);
    await stop(otherLanguage);

    const back = new LeaseClient(stack.url, owner.sessionId, 'kotlin', lease);
    expect(await back.resume()).toMatchObject({ resumed: true, lease });
    await stop(back);
  });
});

describe('faults: the files API refuses workspace escapes', () => {
  let escape: FaultTask;
  let secret: string;

  beforeAll(async () => {
    escape = await task('escape');
    secret = `secret-${Math.random().toString(36).slice(2)}`;
    writeFileSync(join(escape.dir, 'secret.txt'), secret);
    mkdirSync(join(escape.dir, 'outside'), { recursive: true });
    writeFileSync(join(escape.dir, 'outside', 'secret.txt'), secret);
    symlinkSync(join(escape.dir, 'outside'), join(escape.workspace, 'linked'));
    symlinkSync(join(escape.dir, 'secret.txt'), join(escape.workspace, 'secret-link.txt'));
  });

  const escapes = [
    ['..', '../secret.txt'],
    ['a percent-encoded ..', '%2e%2e/secret.txt'],
    ['a percent-encoded separator', '..%2fsecret.txt'],
    ['an encoded backslash', '..%5csecret.txt'],
    ['an absolute path', '/etc/passwd'],
    ['a symlinked folder', 'linked/secret.txt'],
    ['a symlinked file', 'secret-link.txt'],
  ] as const;

  it.each(escapes)('a read through %s is refused with 400/403 and shows nothing of the outside', async (_what, path) => {
    // The query is built raw so the encodings reach the backend as written.
    const res = await fetch(`${stack.url}/api/sessions/${escape.sessionId}/file?path=${path}`, { headers: authHeaders() });
    const body = await res.text();
    expect([400, 403, 404]).toContain(res.status);
    // On Linux `..\\secret.txt` is an ordinary file name inside the workspace: 404 is right for it.
    if (!path.includes('%5c')) expect([400, 403]).toContain(res.status);
    expect(body).not.toContain(secret);
    expect(JSON.parse(body)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it('a double-encoded .. is a name, not an escape: not found, nothing read', async () => {
    const res = await fetch(`${stack.url}/api/sessions/${escape.sessionId}/file?path=%252e%252e%252fsecret.txt`, { headers: authHeaders() });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(secret);
  });

  it('a write through a symlink or .. is refused and writes nothing', async () => {
    for (const path of ['linked/secret.txt', '../secret.txt', '%2e%2e%2fsecret.txt']) {
      const res = await fetch(`${stack.url}/api/sessions/${escape.sessionId}/file?path=${path}`, {
        method: 'PUT',
        headers: { ...authHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'overwritten' }),
      });
      expect([400, 403]).toContain(res.status);
    }
    expect(readFileSync(join(escape.dir, 'secret.txt'), 'utf8')).toBe(secret);
    expect(readFileSync(join(escape.dir, 'outside', 'secret.txt'), 'utf8')).toBe(secret);
  });
});

describe('faults: cross-origin callers and bad API bodies', () => {
  it('a cross-origin socket is refused at the upgrade and a cross-origin write is refused with 403, changing nothing', async () => {
    const target = await task('origin');
    const ws = new WebSocket(`${stack.url.replace(/^http/, 'ws')}/lsp/${target.sessionId}?language=kotlin`, {
      headers: { ...authHeaders(), origin: 'http://evil.example' },
    });
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(403);
    const before = await stack.api('/api/settings');
    const res = await fetch(`${stack.url}/api/settings`, {
      method: 'PUT',
      headers: { ...authHeaders(), 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ show_status_bar: false }),
    });
    expect(res.status).toBe(403);
    expect(await stack.api('/api/settings')).toEqual(before);
  });

  const badBodies: Array<[string, string, string, string, number]> = [
    ['a task that is not JSON', 'POST', '/api/tasks', '{"title":', 400],
    ['a task with a title of the wrong type', 'POST', '/api/tasks', JSON.stringify({ title: 7, executor: 'local_pc', repositories: [] }), 400],
    ['a task with an unknown executor', 'POST', '/api/tasks', JSON.stringify({ title: 't', executor: 'mainframe', repositories: [{ path: '/tmp' }] }), 400],
    ['settings that are an array', 'PUT', '/api/settings', '[1,2]', 400],
    ['settings with a wrong type', 'PUT', '/api/settings', JSON.stringify({ show_status_bar: 'yes' }), 400],
    ['a body over the size limit', 'PUT', '/api/settings', JSON.stringify({ locale: 'x'.repeat(8 * MiB) }), 413],
  ];

  it.each(badBodies)('%s (%s %s) is refused with a clear error: a code and a message', async (_what, method, path, body, status) => {
    const res = await fetch(`${stack.url}${path}`, { method, headers: { ...authHeaders(), 'content-type': 'application/json' }, body });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    expect((await fetch(`${stack.url}/api/health`)).status).toBe(200);
  });
});
