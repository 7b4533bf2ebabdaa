import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../support/access.js';
import { aliveWhen, BrowserClient, bundledServersPath, childPids, descendants, serverRoots, startTestBackend, type TestBackend } from './backend-support.js';

/** The LSP gateway end to end: browser -> backend -> agentctl -> typescript-language-server. */
const root = mkdtempSync(join(tmpdir(), 'kandev-backend-lsp-'));
const workspace = join(root, 'workspace');
const source = 'const greeting: string = "hi";\nexport function hello(name: string): string { return greeting + name; }\n';
let stack: TestBackend;
let sessionId: string;
let agentctlPid: number;

beforeAll(async () => {
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }));
  writeFileSync(join(workspace, 'a.ts'), source);
  stack = await startTestBackend();
  const task = await stack.api('POST', '/api/tasks', {
    title: 'ts',
    executor: 'local_pc',
    repositories: [{ path: workspace }],
    env: { PATH: bundledServersPath },
  });
  const session = await stack.api('POST', `/api/tasks/${task.json.id}/sessions`);
  expect(session.json.status).toBe('running');
  sessionId = session.json.id;
  agentctlPid = stack.backend.sessions.liveHost(sessionId)?.pid as number;
});

afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

function open(language = 'typescript', session = sessionId, origin?: string): BrowserClient {
  return BrowserClient.open(stack.url, session, language, origin ? { origin } : {});
}

async function initialize(client: BrowserClient): Promise<Record<string, any>> {
  const ready = await client.waitFor((f) => f.status === 'ready');
  const result = await client.request('initialize', {
    processId: null,
    rootUri: ready.workspaceUri,
    workspaceFolders: [{ uri: ready.workspaceUri, name: 'workspace' }],
    capabilities: { textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } },
  });
  client.notify('initialized', {});
  return result;
}

async function closedCount(code: string): Promise<number> {
  const text = await (await fetch(`${stack.url}/metrics`, { headers: authHeaders() })).text();
  const line = text.split('\n').find((l) => l.startsWith(`kandev_lsp_connections_closed_total{code="${code}"} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('admission', () => {
  it('closes an unknown session with 4002 on an accepted WebSocket', async () => {
    const client = open('typescript', 'no-such-session');
    expect(await client.opened).toBe(true);
    expect(await client.closed).toMatchObject({ code: 4002 });
  });

  it('closes an unknown language with 4002 and a reason that says so, starting nothing', async () => {
    const before = descendants(agentctlPid).length;
    const client = open('cobol');
    expect(await client.opened).toBe(true);
    expect(await client.closed).toEqual({ code: 4002, reason: 'unknown_language' });
    expect(descendants(agentctlPid).length).toBe(before);
  });

  it('S26 closes a remote_docker task with 4004 and starts no agentctl or server', async () => {
    const task = await stack.api('POST', '/api/tasks', { title: 'remote', executor: 'remote_docker', repositories: [{ path: '/workspace' }] });
    const agentctlsBefore = childPids(process.pid, 'agentctl');
    const session = await stack.api('POST', `/api/tasks/${task.json.id}/sessions`);
    expect(session).toMatchObject({ status: 422, json: { error: { code: 'executor_unsupported' } } });
    const client = open('typescript', session.json.session.id);
    expect(await client.opened).toBe(true);
    expect(await client.closed).toMatchObject({ code: 4004 });
    expect(childPids(process.pid, 'agentctl')).toEqual(agentctlsBefore);
    expect((await stack.api('GET', `/api/sessions/${session.json.session.id}`)).json.status).toBe('failed');
  });

  it('refuses a cross-site Origin at the upgrade with 403, and accepts its own origin', async () => {
    const evil = open('typescript', sessionId, 'http://evil.example');
    expect(await evil.opened).toBe(false);
    expect(evil.refusedStatus).toBe(403);
    const own = open('typescript', sessionId, stack.url);
    expect(await own.waitFor((f) => f.status === 'ready')).toMatchObject({ status: 'ready', resumed: false });
    own.ws.close(1000);
    await own.closed;
  });

  it('S27 closes 4005 at capacity while every lease is attached, before anything starts; a release frees the slot', async () => {
    const small = await startTestBackend({ KANDEV_LSP_MAX_CONNECTIONS: '1' });
    try {
      const task = await small.api('POST', '/api/tasks', {
        title: 'cap',
        executor: 'local_pc',
        repositories: [{ path: workspace }],
        env: { PATH: bundledServersPath },
      });
      const session = await small.api('POST', `/api/tasks/${task.json.id}/sessions`);
      const pid = small.backend.sessions.liveHost(session.json.id)?.pid as number;
      const first = BrowserClient.open(small.url, session.json.id, 'typescript');
      await first.waitFor((f) => f.status === 'ready');
      // Servers are agentctl's direct children (the first one's own tree may still be growing).
      const firstServer = serverRoots(pid);
      const second = BrowserClient.open(small.url, session.json.id, 'typescript');
      expect(await second.closed).toMatchObject({ code: 4005 });
      expect(serverRoots(pid)).toEqual(firstServer);
      // Closing a tab only detaches (the lease keeps its slot); an explicit release gives it back.
      const firstTree = descendants(pid);
      const aliveAtReleased = aliveWhen(
        first,
        (f) => f.status === 'released',
        () => firstTree,
      );
      first.sendRaw(JSON.stringify({ control: 'release', reason: 'stop' }));
      expect(await first.waitFor((f) => f.status === 'released')).toEqual({ status: 'released', reason: 'stop' });
      expect(await aliveAtReleased).toEqual([]);
      const third = BrowserClient.open(small.url, session.json.id, 'typescript');
      expect(await third.waitFor((f) => f.status === 'ready')).toMatchObject({ resumed: false });
      third.ws.close(1000);
      await third.closed;
    } finally {
      await small.close();
    }
  });
});

describe('a real language server through the whole path', () => {
  it('initializes, hovers, and release shuts the server down and reaps it', async () => {
    const earlier = descendants(agentctlPid);
    const client = open();
    const result = await initialize(client);
    const ready = client.frames.find((f) => f.status === 'ready') as Record<string, any>;
    expect(ready).toMatchObject({ status: 'ready', resumed: false, language: 'typescript', workspacePath: workspace, repoSubpaths: [] });
    expect(ready.workspaceUri).toBe(`file://${workspace}`);
    expect(typeof ready.lease).toBe('string');
    expect(result.result.capabilities.hoverProvider).toBeTruthy();

    const uri = `${ready.workspaceUri}/a.ts`;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: source } });
    let hover: Record<string, any> | undefined;
    // tsserver loads the project after didOpen; an early hover may legitimately be empty.
    for (let attempt = 0; attempt < 50 && !hover?.result; attempt++) {
      hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 17 } });
      if (!hover.result) await new Promise((r) => setTimeout(r, 200));
    }
    expect(JSON.stringify(hover?.result?.contents)).toContain('hello(name: string): string');

    const servers = descendants(agentctlPid).filter((pid) => !earlier.includes(pid));
    expect(servers.length).toBeGreaterThan(0);
    const aliveAtReleased = aliveWhen(
      client,
      (f) => f.status === 'released',
      () => servers,
    );
    client.ws.send(JSON.stringify({ control: 'release', reason: 'stop' }));
    expect(await client.waitFor((f) => f.status === 'released')).toEqual({ status: 'released', reason: 'stop' });
    expect(await aliveAtReleased).toEqual([]);
    expect(await client.closed).toMatchObject({ code: 1000 });
  });

  it("/metrics times each frame the relay handles, both ways, and the server's start", async () => {
    const before = await relayCounts();
    const client = open();
    await initialize(client);
    expect(client.frames.find((f) => f.status === 'ready')).toMatchObject({ resumed: false });
    // Each frame is timed before it is handed on, so by the time an answer arrived it was counted.
    const after = await relayCounts();
    expect(after.start).toBe(before.start + 1);
    expect(after.toServer).toBeGreaterThanOrEqual(before.toServer + 1);
    expect(after.toBrowser).toBeGreaterThanOrEqual(before.toBrowser + 2);
    client.ws.send(JSON.stringify({ control: 'release', reason: 'stop' }));
    await client.waitFor((f) => f.status === 'released');
    await client.closed;
  });
});

async function relayCounts(): Promise<{ toServer: number; toBrowser: number; start: number }> {
  const text = await (await fetch(`${stack.url}/metrics`, { headers: authHeaders() })).text();
  const count = (series: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${series} `))
        ?.split(' ')[1] ?? 0,
    );
  return {
    toServer: count('kandev_lsp_relay_added_seconds_count{direction="to_server"}'),
    toBrowser: count('kandev_lsp_relay_added_seconds_count{direction="to_browser"}'),
    start: count('kandev_lsp_server_start_seconds_count'),
  };
}

describe('bad browser input closes only that connection', () => {
  it('a malformed frame closes its connection with 1007 and an oversized one with 1009; a neighbour keeps working', async () => {
    const closed1007 = await closedCount('1007');
    const closed1009 = await closedCount('1009');
    const neighbour = open();
    await initialize(neighbour);

    const malformed = open();
    await malformed.waitFor((f) => f.status === 'ready');
    malformed.sendRaw('this is not json');
    expect(await malformed.closed).toMatchObject({ code: 1007 });

    const notAnObject = open();
    await notAnObject.waitFor((f) => f.status === 'ready');
    notAnObject.sendRaw('[1,2,3]');
    expect(await notAnObject.closed).toMatchObject({ code: 1007 });

    const oversized = open();
    await oversized.waitFor((f) => f.status === 'ready');
    oversized.sendRaw(JSON.stringify({ jsonrpc: '2.0', method: 'x', params: 'a'.repeat(16 * 1024 * 1024) }));
    expect(await oversized.closed).toMatchObject({ code: 1009 });

    const uri = `file://${workspace}/a.ts`;
    neighbour.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: source } });
    const answer = await neighbour.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 7 } });
    expect(answer).toHaveProperty('result');
    expect(neighbour.ws.readyState).toBe(neighbour.ws.OPEN);
    expect(await closedCount('1007')).toBe(closed1007 + 2);
    expect(await closedCount('1009')).toBe(closed1009 + 1);

    // Stopping the session tears its streams down: agentctl's 1001 reaches the browser as is.
    const stopped = await stack.api('POST', `/api/sessions/${sessionId}/stop`);
    expect(stopped.json.status).toBe('stopped');
    expect(await neighbour.closed).toMatchObject({ code: 1001 });
  });
});
