import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { TEST_ACCESS_TOKEN } from '../support/access.js';
import { repoRoot } from '../support/build.js';
import { fakeKotlinTask, removeTask, startLeaseBackend, type FakeTask, type LeaseBackend } from './lease-support.js';
import { call, connect } from './mcp-support.js';

/**
 * `npm run mcp`: `config --session` prints the JSON an MCP client takes, and `stdio` relays a
 * stdio-only client (the SDK's own stdio client here) to the endpoint. Both run as a person runs
 * them, through npm, against the real backend; the fake server stands in as `kotlin-lsp`.
 */
const script: FakeScript = { capabilities: { hoverProvider: true }, rules: { 'textDocument/hover': [{ respond: { contents: 'fake hover over stdio' } }] } };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function npmMcp(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'mcp', '--', ...args], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code as number) : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let stack: LeaseBackend;
let task: FakeTask;
let backendEnv: Record<string, string>;

beforeAll(async () => {
  stack = await startLeaseBackend();
  await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: ['kotlin'] });
  task = await fakeKotlinTask(stack, script, 'cli');
  const url = new URL(stack.url);
  // As a person's shell has it: the backend's address and the access token (not the home's file).
  backendEnv = { KANDEV_HOST: url.hostname, KANDEV_PORT: url.port, KANDEV_TOKEN: TEST_ACCESS_TOKEN };
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (task) removeTask(task);
});

describe('npm run mcp -- config --session <id>', () => {
  it('prints exactly the client JSON, one line, with a new token that opens the endpoint', async () => {
    const printed = await npmMcp(['config', '--session', task.sessionId], backendEnv);
    expect(printed.stderr).toBe('');
    expect(printed.code).toBe(0);
    expect(printed.stdout.endsWith('\n')).toBe(true);
    expect(printed.stdout.trimEnd()).not.toContain('\n');
    const config = JSON.parse(printed.stdout) as Record<string, unknown>;
    const token = /^Bearer (kmcp_\S+)$/.exec(
      String((config as { mcpServers: { kandev: { headers: { Authorization: string } } } }).mcpServers.kandev.headers.Authorization),
    )?.[1];
    expect(token).toBeDefined();
    expect(config).toStrictEqual({
      mcpServers: { kandev: { type: 'http', url: `${stack.url}/mcp`, headers: { Authorization: `Bearer ${token}` } } },
    });
    const client = await connect(`${stack.url}/mcp`, token as string);
    expect((await client.listTools()).tools).toHaveLength(10);
    await client.close();
    // Each run mints another token; the first stays good.
    const again = JSON.parse((await npmMcp(['config', `--session=${task.sessionId}`], backendEnv)).stdout) as typeof config;
    expect(JSON.stringify(again)).not.toBe(JSON.stringify(config));
  }, 120_000);

  it('no session: the usage, exit 2; an unknown session or a wrong access token: the HTTP error, exit 1, nothing on stdout', async () => {
    const usage = await npmMcp(['config'], backendEnv);
    expect([usage.code, usage.stdout]).toEqual([2, '']);
    expect(usage.stderr).toMatch(/npm run mcp -- config --session ID/);
    const unknown = await npmMcp(['config', '--session', 'no-such-session'], backendEnv);
    expect([unknown.code, unknown.stdout]).toEqual([1, '']);
    expect(unknown.stderr).toMatch(/^kandev mcp: HTTP 404/);
    const refused = await npmMcp(['config', '--session', task.sessionId], { ...backendEnv, KANDEV_TOKEN: 'not-the-access-token' });
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^kandev mcp: HTTP 401/);
  }, 120_000);
});

describe('npm run mcp -- stdio', () => {
  it('an SDK client over stdio, through the bridge, lists the tools and calls one', async () => {
    const { stdout } = await npmMcp(['config', '--session', task.sessionId], backendEnv);
    const server = (JSON.parse(stdout) as { mcpServers: { kandev: { url: string; headers: { Authorization: string } } } }).mcpServers.kandev;
    const transport = new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp', '--', 'stdio'],
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        KANDEV_MCP_URL: server.url,
        KANDEV_MCP_TOKEN: server.headers.Authorization.replace(/^Bearer /, ''),
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-only', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('diagnostics');
      expect(tools).toHaveLength(10);
      expect(client.getInstructions()).toMatch(/grep/);
      const hover = await call(client, 'hover', { path: 'Main.kt', line: 1, column: 5 });
      expect(hover.isError).toBeFalsy();
      expect(hover.text).toContain('fake hover over stdio');
      // A tool error crosses the bridge as a tool error, not a broken pipe.
      const refused = (await client.callTool({ name: 'hover', arguments: { path: '../x.kt', line: 1, column: 1 } })) as CallToolResult;
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('without a URL and token it says which variables to set and exits 2', async () => {
    const bare = await npmMcp(['stdio'], { KANDEV_MCP_URL: '', KANDEV_MCP_TOKEN: '' });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/set KANDEV_MCP_URL and KANDEV_MCP_TOKEN/);
  }, 60_000);
});
