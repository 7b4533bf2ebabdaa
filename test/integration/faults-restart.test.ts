/**
 * The crash budget through the real stack (backend in this process with a ManualClock for the
 * backoff, built agentctl, the fake server scripted to crash): a leased server that exits is
 * restarted (restarting frame with its stderr tail, a new process the broker initializes itself,
 * ready{resumed:true} on the same socket, the browser's documents reopened); past five restarts in
 * three minutes the lease ends with server_exited (stderr tail) and 4006.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { eventually, fakeKotlinTask, LeaseClient, readLog, removeTask, startLeaseBackend, type FakeTask, type LeaseBackend } from './lease-support.js';

/** Hover makes the server say its last words on stderr and die. */
const crashing: FakeScript = {
  capabilities: { hoverProvider: true },
  rules: { 'textDocument/hover': [{ stderr: 'panic: runtime error: index out of range [3] with length 3' }, { exit: 2 }] },
};

const clock = new ManualClock();
let stack: LeaseBackend;
const tasks: FakeTask[] = [];

beforeAll(async () => {
  stack = await startLeaseBackend({}, { clock });
});

afterAll(async () => {
  await stack?.close();
  tasks.forEach(removeTask);
});

const serverPids = (task: FakeTask) => [...new Set(readLog(task.logFile).map((l) => l.pid))];
const methodsOf = (task: FakeTask, pid: number) =>
  readLog(task.logFile)
    .filter((l) => l.pid === pid)
    .map((l) => l.message.method);

/** Crashes the current server through a hover; resolves with the frame that answers the crash. */
async function crash(client: LeaseClient, task: FakeTask, frames: number): Promise<Record<string, any>> {
  client.send({
    jsonrpc: '2.0',
    id: `crash-${frames}`,
    method: 'textDocument/hover',
    params: { textDocument: { uri: task.uri }, position: { line: 0, character: 0 } },
  });
  return client.waitFor((f) => (f.status === 'restarting' || f.status === 'server_exited') && client.frames.indexOf(f) >= frames);
}

describe('crash budget', () => {
  it('a crashed server is restarted: restarting with its stderr tail, the broker initializes the new process, the browser resumes and its document reaches the new server', async () => {
    const task = await fakeKotlinTask(stack, crashing, 'restart-once');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    const { ready } = await client.initialize();
    client.notify('textDocument/didOpen', { textDocument: { uri: task.uri, languageId: 'kotlin', version: 1, text: 'fun main() {}' } });
    const [first] = serverPids(task);

    const restarting = await crash(client, task, client.frames.length);
    expect(restarting).toMatchObject({ status: 'restarting', language: 'kotlin', attempt: 1, of: 5 });
    expect(restarting.stderrTail).toContain('panic: runtime error: index out of range');
    // The hover that killed it is answered (cancelled), never left hanging.
    expect(client.frames.find((f) => typeof f.id === 'string' && f.id.startsWith('crash-'))).toMatchObject({ error: { code: -32800 } });

    clock.advance(1_000);
    // On the same socket, as on a reattach: ready{resumed:true}, reopen, attachment-ready.
    const resumed = await client.waitFor((f) => f.status === 'ready' && f.resumed === true);
    client.notify('textDocument/didOpen', { textDocument: { uri: task.uri, languageId: 'kotlin', version: 2, text: 'fun main() {}' } });
    client.control({ control: 'attachment-ready' });
    await client.waitFor((f) => f.status === 'synchronized');
    expect(resumed).toMatchObject({ status: 'ready', lease: ready.lease, resumed: true, initializeResult: { capabilities: { hoverProvider: true } } });
    const pids = serverPids(task);
    expect(pids).toHaveLength(2);
    const second = pids.find((p) => p !== first) as number;
    // The server's log is the witness of what it received; its writes have no event here.
    expect(await eventually(() => methodsOf(task, second).length >= 3)).toBe(true);
    expect(methodsOf(task, second).slice(0, 3)).toEqual(['initialize', 'initialized', 'textDocument/didOpen']);
    // The broker replayed the browser's own initialize params (rootUri, capabilities).
    const replayed = readLog(task.logFile).find((l) => l.pid === second && l.message.method === 'initialize')?.message.params;
    const original = readLog(task.logFile).find((l) => l.pid === first && l.message.method === 'initialize')?.message.params;
    expect(replayed).toEqual(original);
    await client.leave();
  });

  it('past five restarts in three minutes the lease ends with server_exited (stderr tail) and 4006', async () => {
    const task = await fakeKotlinTask(stack, crashing, 'restart-budget');
    tasks.push(task);
    const client = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await client.initialize();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await crash(client, task, client.frames.length)).toMatchObject({ status: 'restarting', attempt, of: 5 });
      clock.advance(1_000 * 2 ** (attempt - 1));
      await client.waitFor((f) => f.status === 'ready' && f.resumed === true && client.frames.filter((g) => g.status === 'ready').length === attempt + 1);
    }
    expect(await eventually(() => serverPids(task).length === 6)).toBe(true);
    const last = await crash(client, task, client.frames.length);
    expect(last).toMatchObject({ status: 'server_exited', language: 'kotlin' });
    expect(last.stderrTail).toContain('panic: runtime error');
    expect((await client.closed).code).toBe(4006);
    expect(stack.backend.leases.list().filter((l) => l.sessionId === task.sessionId)).toEqual([]);
  });
});
