/**
 * Bounded parsing (docs/architecture.md section 3): JSON nested deeper than MAX_JSON_DEPTH (256) is refused on
 * every hop before it is parsed. A request gets a JSON-RPC error naming the bound at once (no 30 s
 * wait, no pending slot), a notification is dropped with a log line, a response reaches its waiter
 * as that error, and the connection stays up. Was: ~4,500 levels overflowed the backend's stack
 * ("lease_effect_failed ... Maximum call stack size exceeded") and the request hung for 30 s.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_JSON_DEPTH, MAX_PENDING_BROWSER_REQUESTS } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../support/access.js';
import { startAgentctl, taskPath as agentctlTaskPath, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { installFakeServer, readLog, writeScript } from '../support/fakeServer.js';
import { LeaseClient } from './lease-support.js';
import { fakeTask, startFaultStack, type FaultStack, type FaultTask } from './faults-support.js';

const DEPTH = 4_500;
const deep = (depth = DEPTH): string => '['.repeat(depth) + ']'.repeat(depth);
/** Deeper than the bound yet serializable by the fake server's own JSON.stringify. */
const deepValue = (depth = MAX_JSON_DEPTH + 50): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

let stack: FaultStack;
let task: FaultTask;

beforeAll(async () => {
  stack = await startFaultStack();
  task = await fakeTask(
    stack,
    {
      rules: {
        'kandev/deepResult': [{ respond: deepValue() }],
        'kandev/deepFromServer': [
          { notify: 'kandev/deepNote', params: deepValue() },
          { request: 'kandev/deepAsk', params: deepValue() },
        ],
      },
    },
    'nesting',
  );
});

afterAll(async () => {
  await stack?.stop();
  task?.remove();
});

/** The task's tab: the lease the previous tab left detached is resumed (no hint: the most recent). */
async function openTab(): Promise<LeaseClient> {
  const tab = new LeaseClient(stack.url, task.sessionId, 'kotlin');
  await tab.resume();
  return tab;
}

describe('faults: deeply nested JSON, browser to backend', () => {
  it('a deep request is answered at once with an error naming the bound; it never reaches the server nor holds a slot', async () => {
    const tab = new LeaseClient(stack.url, task.sessionId, 'kotlin');
    await tab.initialize();
    // More deep requests than there are pending slots: none of them may take one.
    const count = MAX_PENDING_BROWSER_REQUESTS + 44;
    const ids = Array.from({ length: count }, (_, i) => `deep-${i}`);
    for (const id of ids) tab.ws.send(`{"jsonrpc":"2.0","id":"${id}","method":"kandev/deep","params":${deep()}}`);
    const echo = tab.request('kandev/echo', {});
    const answers = await Promise.all(ids.map((id) => tab.waitFor((f) => f.id === id)));
    for (const answer of answers) {
      expect(answer.error).toMatchObject({ code: -32600, message: expect.stringContaining(String(MAX_JSON_DEPTH)) });
      expect(answer.error.code).not.toBe(-32800);
    }
    const echoed = await echo;
    expect(echoed).toMatchObject({ result: null });
    // Answered by the backend itself, before the echo sent after them came back through the server.
    expect(tab.frames.indexOf(answers.at(-1) as object)).toBeLessThan(tab.frames.indexOf(echoed));
    expect(readLog(task.logFile).some((l) => l.message.method === 'kandev/deep')).toBe(false);
    expect(stack.logs.some((l) => String(l.detail ?? '').includes('Maximum call stack'))).toBe(false);
    await tab.leave();
  });

  it('a deep notification is dropped with a log line; the connection stays up', async () => {
    const tab = await openTab();
    const mark = stack.logs.length;
    tab.ws.send(`{"jsonrpc":"2.0","method":"kandev/deepNote","params":${deep()}}`);
    // Matched by kind: a late-written line of the previous test's refusals is not this one.
    const refused = await stack.nextLog((l) => l.event === 'lsp_frame_refused' && l.kind === 'notification', mark);
    expect(refused).toMatchObject({ reason: 'json_too_deep', from: 'browser', kind: 'notification' });
    expect(await tab.request('kandev/echo', {})).toMatchObject({ result: null });
    expect(readLog(task.logFile).some((l) => l.message.method === 'kandev/deepNote')).toBe(false);
    await tab.leave();
  });
});

describe('faults: deeply nested JSON, server to backend', () => {
  it('a deep result ends its browser request with the bound error; a deep server notification is dropped and a deep server request answered', async () => {
    const tab = await openTab();
    const before = stack.logs.length;
    const reply = await tab.request('kandev/deepResult', {});
    expect(reply.error).toMatchObject({ code: -32600, message: expect.stringContaining(String(MAX_JSON_DEPTH)) });
    // Log lines are written asynchronously: the deep result's line must be in before the mark.
    await stack.nextLog((l) => l.event === 'lsp_frame_refused' && l.kind === 'response', before);

    const mark = stack.logs.length;
    await tab.request('kandev/deepFromServer', {});
    await stack.nextLog((l) => l.event === 'lsp_frame_refused' && l.kind === 'request', mark);
    const kinds = stack.logs
      .slice(mark)
      .filter((l) => l.event === 'lsp_frame_refused')
      .map((l) => `${String(l.from)}/${String(l.kind)}`);
    expect(kinds).toEqual(['server/notification', 'server/request']);
    expect(tab.frames.some((f) => f.method === 'kandev/deepNote' || f.method === 'kandev/deepAsk')).toBe(false);
    // The server's request got the refusal as its answer (a request is never left unanswered).
    await tab.request('kandev/echo', {});
    const answered = readLog(task.logFile).find((l) => typeof l.message.id === 'string' && String(l.message.id).startsWith('fake-') && l.message.error);
    expect(answered?.message).toMatchObject({ error: { code: -32600 } });
    await tab.leave();
  });
});

describe('faults: deeply nested JSON in API bodies', () => {
  it('a settings body nested deeper than the bound is a clear 400; the backend keeps serving', async () => {
    const res = await fetch(`${stack.url}/api/settings`, {
      method: 'PUT',
      headers: { ...authHeaders(), 'content-type': 'application/json' },
      body: `{"lsp_server_configs":{"kotlin":${deep(100_000)}}}`,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(String(MAX_JSON_DEPTH));
    expect((await fetch(`${stack.url}/api/health`)).status).toBe(200);
  });
});

describe('faults: deeply nested JSON, backend to agentctl', () => {
  let agentctl: RunningAgentctl;
  let dir: string;
  let logFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-faults-agentctl-'));
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
    const bin = join(dir, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    logFile = join(dir, 'server.jsonl');
    agentctl = await startAgentctl({
      workspace,
      env: { PATH: agentctlTaskPath(bin), HOME: dir, FAKE_LSP_SCRIPT: writeScript(dir, {}), FAKE_LSP_LOG: logFile },
    });
  });

  afterAll(async () => {
    await agentctl?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('agentctl answers a deep request itself, drops a deep notification, and keeps the stream', async () => {
    const client = agentctl.openStream('language=kotlin&autoInstall=false');
    await client.status('ready');
    client.ws.send(`{"jsonrpc":"2.0","id":41,"method":"kandev/deep","params":${deep()}}`);
    client.ws.send(`{"jsonrpc":"2.0","method":"kandev/deepNote","params":${deep()}}`);
    const refusal = await client.waitFor((f) => f.id === 41);
    expect(refusal.error).toMatchObject({ code: -32600, message: expect.stringContaining(String(MAX_JSON_DEPTH)) });
    expect(await client.request('kandev/echo', {})).toMatchObject({ result: null });
    expect(readLog(logFile).map((l) => l.message.method)).toEqual(['kandev/echo']);
    // agentctl's log is written asynchronously, apart from the stream: polled.
    await expect.poll(() => agentctl.logs.filter((l) => l.event === 'stream_frame_refused').map((l) => l.kind)).toEqual(['request', 'notification']);
    client.close();
  });
});
