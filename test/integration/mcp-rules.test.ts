import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@kandev/kit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { TEST_ACCESS_TOKEN } from '../support/access.js';
import { eventually, fakeKotlinTask, LeaseClient, removeTask, sample, startLeaseBackend, type FakeTask, type LeaseBackend } from './lease-support.js';
import { agentToken, call, connect } from './mcp-support.js';

/**
 * The rules an agent's MCP client lives by, on the real backend with the scriptable fake server as
 * `kotlin-lsp` (capacity and timers need no real server): the token's scope, capacity against a
 * person's lease, auto start, idle release, bad arguments.
 */
const tasks: FakeTask[] = [];
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  tasks.forEach(removeTask);
});

const script: FakeScript = { capabilities: { hoverProvider: true }, rules: { 'textDocument/hover': [{ respond: { contents: 'fake hover' } }] } };

async function agent(stack: LeaseBackend, sessionId: string): Promise<Client> {
  const { url, token } = await agentToken(stack, sessionId);
  const client = await connect(url, token);
  clients.push(client);
  return client;
}

async function rawMcp(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('the agent token is good for its session on /mcp and nothing else', () => {
  let stack: LeaseBackend;
  afterAll(async () => stack?.close());

  it('refuses the access token on /mcp, the agent token everywhere else, an ended session and another session', async () => {
    stack = await startLeaseBackend();
    const a = await fakeKotlinTask(stack, script, 'a');
    const b = await fakeKotlinTask(stack, script, 'b');
    tasks.push(a, b);
    const { url, token } = await agentToken(stack, a.sessionId);
    expect(await rawMcp(url, token)).toBe(200);
    // The person's access token opens the API but not the agents' endpoint.
    expect(await rawMcp(url, TEST_ACCESS_TOKEN)).toBe(401);
    // The agent token opens nothing but /mcp: the API, the metrics, the page.
    for (const path of ['/api/tasks', `/api/sessions/${a.sessionId}`, '/metrics', '/']) {
      const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect([path, response.status]).toEqual([path, 401]);
    }
    // Another session's MCP client is unknown to this token.
    const clientOfB = await agent(stack, b.sessionId);
    const sessionOfB = (clientOfB.transport as { sessionId?: string }).sessionId as string;
    const crossed = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'mcp-session-id': sessionOfB,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(crossed.status).toBe(404);
    // The session ends: its tokens with it.
    await stack.api('POST', `/api/sessions/${a.sessionId}/stop`);
    expect(await rawMcp(url, token)).toBe(401);
  }, 120_000);
});

describe('capacity: an agent never takes a slot from a person', () => {
  let stack: LeaseBackend;
  afterAll(async () => stack?.close());

  it('at capacity the tool answers "capacity full" while the person keeps their lease, attached or detached', async () => {
    stack = await startLeaseBackend({ KANDEV_LSP_MAX_CONNECTIONS: '1' });
    await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['kotlin'] });
    const t = await fakeKotlinTask(stack, script, 'cap');
    tasks.push(t);
    const person = new LeaseClient(stack.url, t.sessionId, 'kotlin');
    const { ready } = await person.initialize();
    const client = await agent(stack, t.sessionId);
    const refused = await call(client, 'hover', { path: 'Main.kt', line: 1, column: 5 });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^capacity full/);
    await person.leave();
    const stillRefused = await call(client, 'hover', { path: 'Main.kt', line: 1, column: 5 });
    expect(stillRefused.text).toMatch(/^capacity full/);
    expect(stack.backend.leases.list().map((l) => [l.id, l.ownerKind])).toEqual([[ready.lease, 'person']]);
  }, 120_000);
});

describe('agent leases: counted apart, auto start, idle release, bad arguments', () => {
  const clock = new ManualClock();
  let stack: LeaseBackend;
  let t: FakeTask;
  let client: Client;
  afterAll(async () => stack?.close());

  it('a tool call starts an agent lease that /metrics counts apart, and an idle one is released', async () => {
    stack = await startLeaseBackend({ KANDEV_MCP_LEASE_IDLE_MS: '60000' }, { clock });
    await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: [] });
    t = await fakeKotlinTask(stack, script, 'rules');
    tasks.push(t);
    client = await agent(stack, t.sessionId);
    const off = await call(client, 'hover', { path: 'Main.kt', line: 1, column: 5 });
    expect(off.isError).toBe(true);
    expect(off.text).toMatch(/does not start automatically.*turn on auto start for kotlin in Settings > Editors/);
    expect(stack.backend.leases.list()).toEqual([]);

    await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['kotlin'] });
    const hover = await call(client, 'hover', { path: 'Main.kt', line: 1, column: 5 });
    expect(hover.isError).toBeFalsy();
    expect(hover.text).toContain('fake hover');
    expect(stack.backend.leases.list().map((l) => l.ownerKind)).toEqual(['agent']);
    const metrics = await stack.metrics();
    expect(sample(metrics, 'kandev_lsp_agent_leases')).toBe(1);
    expect(sample(metrics, 'kandev_lsp_leases')).toBe(1);

    clock.advance(59_000);
    expect(stack.backend.leases.list().map((l) => l.phase)).toEqual(['running']);
    clock.advance(1_000);
    await eventually(() => stack.backend.leases.list().length === 0);
    expect(sample(await stack.metrics(), 'kandev_lsp_agent_leases')).toBe(0);
  }, 120_000);

  it('bad arguments get tool errors and the endpoint stays up', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ path: '../outside.kt', line: 1, column: 1 }, /outside the workspace/],
      [{ path: '/etc/passwd', line: 1, column: 1 }, /relative to the workspace root/],
      [{ path: 'notes.unknownext', line: 1, column: 1 }, /unknown language/],
      [{ path: 'Missing.kt', line: 1, column: 1 }, /no such file in the workspace: Missing\.kt/],
      [{ path: 'Main.kt', line: 99, column: 1 }, /has 2 lines; line 99 is past its end/],
      [{ path: 'Main.kt' }, /give line and column/],
      [{ path: 'Main.kt', line: 0, column: 1 }, /line/],
      [{ path: 'x'.repeat(5000), line: 1, column: 1 }, /path/],
    ];
    for (const [args, message] of cases) {
      const result = await call(client, 'hover', args);
      expect([args.path, result.isError]).toEqual([args.path, true]);
      expect(result.text).toMatch(message);
    }
    expect((await call(client, 'hover', { path: 'Main.kt', line: 1, column: 5 })).text).toContain('fake hover');
  }, 120_000);
});
