/**
 * Agent leases across a backend restart: a SIGKILLed backend, started again on the same home,
 * re-adopts the person's lease but not the agent's (whose MCP client died with it): the agent's
 * server is reaped, and nothing the agent held comes back counted as a person's. The agent's token
 * is still good; its next call starts a new agent lease. The fake server stands in as `kotlin-lsp`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { authHeaders } from '../support/access.js';
import { installFakeServer, readLog, writeScript } from '../support/fakeServer.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { eventually, isAlive, LeaseClient, sample } from './lease-support.js';
import { call, connect } from './mcp-support.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-mcp-restart-'));
const home = join(root, 'home');
const stacks: RunningStack[] = [];
const pids: number[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop().catch(() => undefined);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const script: FakeScript = { capabilities: { hoverProvider: true }, rules: { 'textDocument/hover': [{ respond: { contents: 'fake hover' } }] } };

async function backend(): Promise<RunningStack> {
  const stack = await startStack({ KANDEV_HOME: home, KANDEV_LOG_STDERR: '0', KANDEV_RESTART_GRACE_MS: '60000' });
  stacks.push(stack);
  return stack;
}

async function metrics(stack: RunningStack): Promise<string> {
  return (await fetch(`${stack.url}/metrics`, { headers: authHeaders() })).text();
}

function persistedLeases(): Array<{ language: string }> {
  const db = new Database(join(home, 'kandev.db'), { readonly: true });
  try {
    return db.prepare('SELECT language FROM lsp_leases').all() as Array<{ language: string }>;
  } finally {
    db.close();
  }
}

describe('agent leases across a backend restart', () => {
  it("the person's lease is re-adopted; the agent's is neither persisted nor restored as a person's, and its server is reaped", async () => {
    const workspace = join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
    const bin = join(root, 'bin');
    installFakeServer(bin, 'kotlin-lsp');
    const log = join(root, 'server.jsonl');

    const first = await backend();
    await first.api('/api/settings', { method: 'PUT', body: { lsp_auto_start_languages: ['kotlin'] } });
    const task = await first.createTask({ workspace, env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(root, script), FAKE_LSP_LOG: log } });
    const session = await first.startSession(task.id);

    const person = new LeaseClient(first.url, session.id, 'kotlin');
    const { ready } = await person.initialize();
    const config = await first.api<{ mcpServers: { kandev: { url: string; headers: { Authorization: string } } } }>(`/api/sessions/${session.id}/mcp-config`, {
      method: 'POST',
    });
    const token = config.mcpServers.kandev.headers.Authorization.replace(/^Bearer /, '');
    const agent = await connect(config.mcpServers.kandev.url, token);
    expect((await call(agent, 'hover', { path: 'Main.kt', line: 1, column: 5 })).text).toContain('fake hover');
    const before = await metrics(first);
    expect([sample(before, 'kandev_lsp_leases'), sample(before, 'kandev_lsp_agent_leases')]).toEqual([2, 1]);
    // Two fake servers: the person's and the agent's (told apart by who initialized them).
    const serverPids = () => [...new Set(readLog(log).map((l) => l.pid))];
    expect(await eventually(() => serverPids().length === 2)).toBe(true);
    const agentServer = readLog(log).find((l) => l.message.method === 'initialize' && l.message.params?.clientInfo?.name === 'kandev-mcp')?.pid as number;
    const personServer = serverPids().find((pid) => pid !== agentServer) as number;
    pids.push(agentServer, personServer);
    // Only the person's lease is written down for the next backend.
    expect(await eventually(() => persistedLeases().length === 1)).toBe(true);
    expect(persistedLeases()).toEqual([{ language: 'kotlin' }]);

    const gone = new Promise((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGKILL');
    await gone;
    await agent.close().catch(() => undefined);

    const second = await backend();
    expect(await second.api(`/api/sessions/${session.id}`)).toMatchObject({ status: 'running' });
    // Listening means re-adoption is done: the person's lease is back (detached), the agent's is not.
    const after = await metrics(second);
    expect([sample(after, 'kandev_lsp_leases'), sample(after, 'kandev_lsp_agent_leases')]).toEqual([1, 0]);
    // The agent's server, claimed by no lease, is released and reaped; the person's keeps running.
    expect(await eventually(() => !isAlive(agentServer), 600)).toBe(true);
    expect(isAlive(personServer)).toBe(true);
    const resumed = new LeaseClient(second.url, session.id, 'kotlin', ready.lease);
    expect(await resumed.waitFor((f) => f.status === 'ready')).toMatchObject({ lease: ready.lease, resumed: true });

    // The task's token outlives the backend; the agent's next call makes a new agent lease.
    const again = await connect(`${second.url}/mcp`, token);
    expect((await call(again, 'hover', { path: 'Main.kt', line: 1, column: 5 })).text).toContain('fake hover');
    const later = await metrics(second);
    expect([sample(later, 'kandev_lsp_leases'), sample(later, 'kandev_lsp_agent_leases')]).toEqual([2, 1]);
    await again.close();
    await resumed.leave();
  }, 240_000);
});
