import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startLeaseBackend, type LeaseBackend } from './lease-support.js';
import { agentToken, call, connect, DEMO_LANGUAGES, demoSession, type DemoSession } from './mcp-support.js';

/**
 * The MCP endpoint on the demo workspace with the real servers (typescript-language-server, pyright,
 * gopls), driven by the SDK's own client with an agent token.
 */
let stack: LeaseBackend;
let session: DemoSession;
let client: Client;

beforeAll(async () => {
  stack = await startLeaseBackend();
  await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: DEMO_LANGUAGES });
  session = await demoSession(stack);
  const { url, token } = await agentToken(stack, session.sessionId);
  client = await connect(url, token);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await stack?.close();
});

describe('mcp: the tools on the demo with real servers', () => {
  it('lists every tool with a short description and gives instructions', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'call_hierarchy',
      'code_actions',
      'definition',
      'diagnostics',
      'document_symbols',
      'hover',
      'implementation',
      'references',
      'rename',
      'workspace_symbols',
    ]);
    for (const tool of tools) expect((tool.description ?? '').length).toBeLessThan(140);
    expect(client.getInstructions()).toMatch(/grep/);
  });

  it('diagnostics: each demo file reports its deliberate type error, fresh', async () => {
    const result = await call(client, 'diagnostics', { paths: ['src/main.ts', 'app/main.py', 'main.go'] });
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(/src\/main\.ts: fresh/);
    expect(result.text).toMatch(/src\/main\.ts:7:7 error \[typescript 2322\]/);
    expect(result.text).toMatch(/app\/main\.py: fresh/);
    expect(result.text).toMatch(/app\/main\.py:7:\d+ error.*int/);
    expect(result.text).toMatch(/main\.go: fresh/);
    expect(result.text).toMatch(/main\.go:12:\d+ error.*cannot use/);
  }, 120_000);

  it('hover and definition by line and column, and by symbol', async () => {
    const hover = await call(client, 'hover', { path: 'src/greeter.ts', line: 8, column: 17 });
    expect(hover.text).toMatch(/createGreeter\(prefix: string\): Greeter/);
    const definition = await call(client, 'definition', { path: 'src/main.ts', line: 3, column: 18 });
    expect(definition.text).toMatch(/src\/greeter\.ts:8:17/);
    const bySymbol = await call(client, 'definition', { path: 'app/main.py', line: 3, column: 14 });
    expect(bySymbol.text).toMatch(/app\/util\.py:1:5/);
    const goSymbol = await call(client, 'hover', { path: 'util/util.go', symbol: 'Double' });
    expect(goSymbol.text).toMatch(/func Double\(n int\) int/);
  }, 120_000);
});
