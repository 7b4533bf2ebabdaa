import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import {
  eventually,
  fakeKotlinTask,
  isAlive,
  LeaseClient,
  readLog,
  received,
  removeTask,
  sample,
  serverPids,
  startLeaseBackend,
  startSession,
  type FakeTask,
  type LeaseBackend,
} from './lease-support.js';

/**
 * Leases that outlive a browser tab, through the real backend, agentctl and the fake server
 * (installed as kotlin-lsp). The fake server's JSONL log is the witness of what the server saw.
 */
const RANGE = { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } };
const script: FakeScript = {
  capabilities: { hoverProvider: true, textDocumentSync: 1 },
  rules: {
    initialized: [{ request: 'client/registerCapability', params: { registrations: [{ id: 'r-before', method: 'textDocument/definition' }] } }],
    'textDocument/didOpen': [
      { notify: 'textDocument/publishDiagnostics', params: { uri: '$uri', version: '$version', diagnostics: [{ range: RANGE, message: 'seen' }] } },
    ],
    // Sent by the broker at detach: the server goes on talking to a client that has no browser.
    'textDocument/didClose': [
      { request: 'client/registerCapability', params: { registrations: [{ id: 'r-detached', method: 'textDocument/references' }] } },
      { request: 'client/unregisterCapability', params: { unregisterations: [{ id: 'r-before', method: 'textDocument/definition' }] } },
      { request: 'workspace/configuration', params: { items: [{ section: 'fake' }] } },
      { notify: '$/progress', params: { token: 'index', value: { kind: 'begin', title: 'Indexing while detached', percentage: 10 } } },
    ],
    'workspace/didChangeConfiguration': [{ request: 'workspace/configuration', params: { items: [{ section: 'fake' }] } }],
    'textDocument/hover': [{ delayMs: 1_000 }, { respond: { contents: 'hover' } }],
  },
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

async function newTask(name: string): Promise<FakeTask> {
  const task = await fakeKotlinTask(stack, script, name);
  tasks.push(task);
  return task;
}

function connect(task: FakeTask, hint?: string, sessionId = task.sessionId): LeaseClient {
  return new LeaseClient(stack.url, sessionId, 'kotlin', hint);
}

/** Answers the server sent for its own requests (ids the fake minted), from the fake's log. */
function answersReceived(task: FakeTask): Array<Record<string, any>> {
  return readLog(task.logFile)
    .map((l) => l.message)
    .filter((m) => m.method === undefined && typeof m.id === 'string' && String(m.id).startsWith('fake-'));
}

async function openReady(task: FakeTask, text = 'fun main() = println("hi")\n'): Promise<{ client: LeaseClient; lease: string }> {
  const client = connect(task);
  const { ready } = await client.initialize();
  client.notify('textDocument/didOpen', { textDocument: { uri: task.uri, languageId: 'kotlin', version: 1, text } });
  await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics');
  return { client, lease: ready.lease as string };
}

describe('a lease outlives its browser tab', () => {
  it('C01 closing the tab detaches: the same server process keeps running and the backend keeps draining and answering it', async () => {
    const task = await newTask('c01');
    const { client } = await openReady(task);
    const [pid] = serverPids(task.logFile);
    expect(pid).toBeGreaterThan(0);

    // The first registration was answered by the attached browser.
    expect(await eventually(() => answersReceived(task).length === 1)).toBe(true);
    await client.leave();
    // The broker closed the tab's document, and the server's requests while detached were answered
    // by the broker: registration, unregistration, configuration (nothing configured: null).
    expect(await eventually(() => answersReceived(task).length === 4)).toBe(true);
    expect(received(task.logFile, 'textDocument/didClose')).toEqual([
      { jsonrpc: '2.0', method: 'textDocument/didClose', params: { textDocument: { uri: task.uri } } },
    ]);
    expect(answersReceived(task).map((m) => m.result)).toEqual([null, null, null, [null]]);
    expect(isAlive(pid as number)).toBe(true);
    expect(serverPids(task.logFile)).toEqual([pid]);
    expect(received(task.logFile, 'shutdown')).toEqual([]);
    expect(stack.backend.leases.pins.isPinned(task.sessionId)).toBe(true);
    const metrics = await stack.metrics();
    expect(sample(metrics, 'kandev_lsp_leases_detached')).toBeGreaterThanOrEqual(1);
  });

  it('C02 C11 reattaching resumes the same process without a second initialize, with the registrations made while detached', async () => {
    const task = await newTask('c02');
    const first = await openReady(task);
    const [pid] = serverPids(task.logFile);
    await first.client.leave();
    expect(await eventually(() => answersReceived(task).length === 4)).toBe(true);

    const back = connect(task, first.lease);
    const ready = await back.waitFor((f) => f.status === 'ready');
    expect(ready).toMatchObject({
      status: 'ready',
      resumed: true,
      lease: first.lease,
      language: 'kotlin',
      initializeResult: { capabilities: { hoverProvider: true, textDocumentSync: 1 }, serverInfo: { name: 'fake-lsp-server' } },
    });
    // C11: r-before was unregistered and r-detached registered while no browser was attached.
    expect(ready.registrations).toEqual([{ id: 'r-detached', method: 'textDocument/references' }]);
    // C02: current progress, as the server reported it while no browser was attached.
    expect(ready.progress.active).toEqual([expect.objectContaining({ token: 'index', title: 'Indexing while detached', percentage: 10 })]);

    await back.resume([{ uri: task.uri, text: 'fun main() = println("hi")\n', version: 1 }]);
    const diagnostics = await back.waitFor((f) => f.method === 'textDocument/publishDiagnostics');
    // Diagnostics flow only after synchronized, for the reopened document, under the browser's version.
    expect(back.frames.findIndex((f) => f.status === 'synchronized')).toBeLessThan(back.frames.indexOf(diagnostics));
    expect(diagnostics.params).toMatchObject({ uri: task.uri, version: 1 });
    // The server saw one initialize ever, and the reopened document under a new, higher version.
    expect(received(task.logFile, 'initialize')).toHaveLength(1);
    expect(received(task.logFile, 'initialized')).toHaveLength(1);
    expect(received(task.logFile, 'textDocument/didOpen').map((m) => m.params.textDocument.version)).toEqual([1, 2]);
    expect(serverPids(task.logFile)).toEqual([pid]);
    // A resumed browser never sends initialize; if one does anyway it gets the retained result.
    const again = await back.request('initialize', { capabilities: {} });
    expect(again.result).toEqual(ready.initializeResult);
    expect(received(task.logFile, 'initialize')).toHaveLength(1);
    expect(sample(await stack.metrics(), 'kandev_lsp_leases_reattached_total')).toBeGreaterThanOrEqual(1);
    await back.leave();
  });

  it('C05 a tab whose network died (half-open: no close, no pong) reconnects with its hint and resumes its own lease', async () => {
    const task = await newTask('c05');
    const dead = new LeaseClient(stack.url, task.sessionId, 'kotlin', undefined, { autoPong: false });
    const { ready } = await dead.initialize();
    const [pid] = serverPids(task.logFile);
    // The backend still sees `dead` attached; the reconnect's hint names that lease.
    const back = connect(task, ready.lease);
    expect(await back.resume()).toMatchObject({ resumed: true, lease: ready.lease });
    expect((await dead.closed).code).toBe(1006); // terminated: no close frame could reach it
    expect(received(task.logFile, 'initialize')).toHaveLength(1);
    expect(serverPids(task.logFile)).toEqual([pid]);
    await back.leave();
  });

  it('C10 a duplicated tab whose copied hint names a live attached lease gets its own; the original stays attached and working', async () => {
    const task = await newTask('c10');
    const original = await openReady(task);
    const duplicate = connect(task, original.lease);
    const { ready } = await duplicate.initialize();
    expect(ready.lease).not.toBe(original.lease);
    expect(await eventually(() => serverPids(task.logFile).length === 2)).toBe(true);
    const reply = await original.client.request('textDocument/hover', { textDocument: { uri: task.uri }, position: { line: 0, character: 1 } });
    expect(reply.result).toEqual({ contents: 'hover' });
    expect(original.client.ws.readyState).toBe(original.client.ws.OPEN);
    await duplicate.leave();
    await original.client.leave();
  });

  it('C12 S23 saved settings reach the retained server as didChangeConfiguration, and its later configuration requests get the new value', async () => {
    const task = await newTask('c12');
    const first = await openReady(task);
    await first.client.leave();
    expect(await eventually(() => answersReceived(task).length === 4)).toBe(true);

    const saved = await stack.api('PUT', '/api/settings', { lsp_server_configs: { kotlin: { fake: { level: 2 } } } });
    expect(saved.status).toBe(200);
    expect(await eventually(() => received(task.logFile, 'workspace/didChangeConfiguration').length === 1)).toBe(true);
    expect(received(task.logFile, 'workspace/didChangeConfiguration')[0]?.params).toEqual({ settings: { fake: { level: 2 } } });
    expect(await eventually(() => answersReceived(task).length === 5)).toBe(true);
    expect(answersReceived(task).at(-1)?.result).toEqual([{ level: 2 }]);

    // Attached again (S23): the broker, not the browser, answers; no server is spawned for it.
    const back = connect(task, first.lease);
    await back.resume();
    await stack.api('PUT', '/api/settings', { lsp_server_configs: { kotlin: { fake: { level: 3 } } } });
    expect(await eventually(() => answersReceived(task).length === 6)).toBe(true);
    expect(answersReceived(task).at(-1)?.result).toEqual([{ level: 3 }]);
    expect(back.frames.filter((f) => f.method === 'workspace/configuration')).toEqual([]);
    // Another language's change does not touch this server.
    await stack.api('PUT', '/api/settings', { lsp_server_configs: { go: { gopls: { staticcheck: true } } } });
    await back.request('textDocument/hover', { textDocument: { uri: task.uri }, position: { line: 0, character: 1 } });
    expect(received(task.logFile, 'workspace/didChangeConfiguration')).toHaveLength(2);
    expect(received(task.logFile, 'initialize')).toHaveLength(1);
    expect(serverPids(task.logFile)).toHaveLength(1);
    await back.leave();
    await stack.api('PUT', '/api/settings', { lsp_server_configs: { kotlin: null, go: null } });
  });

  it('C13 a request pending at detach is cancelled on the server and its late answer never reaches the next browser; $/cancelRequest is translated', async () => {
    const task = await newTask('c13');
    const first = await openReady(task);
    first.client.send({
      jsonrpc: '2.0',
      id: 'h-1',
      method: 'textDocument/hover',
      params: { textDocument: { uri: task.uri }, position: { line: 0, character: 1 } },
    });
    expect(await eventually(() => received(task.logFile, 'textDocument/hover').length === 1)).toBe(true);
    await first.client.leave();
    const serverHoverId = received(task.logFile, 'textDocument/hover')[0]?.id;
    expect(typeof serverHoverId).toBe('number'); // the server only ever sees the broker's ids
    expect(await eventually(() => received(task.logFile, '$/cancelRequest').length === 1)).toBe(true);
    expect(received(task.logFile, '$/cancelRequest')[0]?.params).toEqual({ id: serverHoverId });

    const back = connect(task, first.lease);
    await back.resume([{ uri: task.uri, text: 'fun main() = println("hi")\n', version: 1 }]);
    // The late answer to h-1 was sent before anything after it; a round trip proves it was dropped.
    const reply = await back.request('textDocument/hover', { textDocument: { uri: task.uri }, position: { line: 0, character: 1 } }, 'h-2');
    expect(reply.result).toEqual({ contents: 'hover' });
    expect(back.frames.filter((f) => f.id === 'h-1')).toEqual([]);
    expect(back.frames.filter((f) => f.method === undefined && f.status === undefined).map((f) => f.id)).toEqual(['h-2']);

    back.send({ jsonrpc: '2.0', id: 'h-3', method: 'textDocument/hover', params: { textDocument: { uri: task.uri }, position: { line: 0, character: 2 } } });
    back.notify('$/cancelRequest', { id: 'h-3' });
    expect(await eventually(() => received(task.logFile, '$/cancelRequest').length === 2)).toBe(true);
    const thirdHover = received(task.logFile, 'textDocument/hover')[2];
    expect(received(task.logFile, '$/cancelRequest')[1]?.params).toEqual({ id: thirdHover?.id });
    expect(thirdHover?.id).not.toBe('h-3');
    await back.leave();
  });

  it('C14 after the session stops no lease survives: a new session starts a fresh server (resumed:false)', async () => {
    const task = await newTask('c14');
    const first = await openReady(task);
    const [pid] = serverPids(task.logFile);
    const stopped = await stack.api('POST', `/api/sessions/${task.sessionId}/stop`);
    expect(stopped.json.status).toBe('stopped');
    expect((await first.client.closed).code).not.toBe(1000);
    expect(await eventually(() => !isAlive(pid as number))).toBe(true);
    expect(stack.backend.leases.list().filter((l) => l.sessionId === task.sessionId)).toEqual([]);
    expect(stack.backend.leases.pins.isPinned(task.sessionId)).toBe(false);

    // The old session is over: its hint routes nowhere and nothing is started for it.
    const stale = connect(task, first.lease);
    expect((await stale.closed).code).toBe(4002);
    expect(serverPids(task.logFile)).toEqual([pid]);

    const sessionId = await startSession(stack, task.taskId);
    const fresh = connect(task, first.lease, sessionId);
    const { ready } = await fresh.initialize();
    expect(ready).toMatchObject({ status: 'ready', resumed: false });
    expect(ready.lease).not.toBe(first.lease);
    expect(ready.initializeResult).toBeUndefined();
    expect(await eventually(() => serverPids(task.logFile).length === 2)).toBe(true);
    expect(received(task.logFile, 'initialize')).toHaveLength(2);
    await fresh.leave();
  });
});
