/**
 * The agents' MCP endpoint (`npm run bench -- mcp`, docs/agents.md): `diagnostics` right after a
 * one-line disk write, called with the SDK's own client on the whole product (backend, agent lease,
 * agentctl, pyright), beside pyright's own time over stdio for the same change (didChange to its
 * publishDiagnostics), and the cost of a warm `definition` call.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileUri } from '@kandev/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../test/support/build.js';
import { StdioLspClient } from '../test/support/stdioClient.js';
import { copyDemoWorkspace, startStack, taskPath } from '../test/support/stack.js';
import { summarize, table, type LatencySummary } from './stats.js';

const ROUNDS = 15;
const FILE = 'app/main.py';
/** The one line rewritten each round: a new value, the same type error. */
const lineOf = (round: number) => `label: str = add_numbers(${round}, 1)`;

function rewrite(path: string, round: number): string {
  const text = readFileSync(path, 'utf8').replace(/^label: str = add_numbers\(\d+, 1\)$/m, lineOf(round));
  writeFileSync(path, text);
  return text;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 180_000 })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  if (result.isError) throw new Error(`${name}: ${text}`);
  return text;
}

async function viaMcp(): Promise<{ diagnostics: LatencySummary; definition: LatencySummary }> {
  const stack = await startStack();
  const workspace = copyDemoWorkspace();
  try {
    await stack.api('/api/settings', { method: 'PUT', body: { lsp_auto_start_languages: ['python'] } });
    const task = await stack.createTask({ title: 'bench-mcp', workspace, env: { PATH: taskPath(), HOME: join(workspace, '.home') } });
    const sessionId = (await stack.startSession(task.id)).id;
    const config = await stack.api<{ mcpServers: { kandev: { url: string; headers: Record<string, string> } } }>(`/api/sessions/${sessionId}/mcp-config`, {
      method: 'POST',
      body: {},
    });
    const server = config.mcpServers.kandev;
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    await tool(client, 'diagnostics', { paths: [FILE] });
    const diagnostics: number[] = [];
    for (let round = 2; round < ROUNDS + 2; round++) {
      rewrite(join(workspace, FILE), round);
      const start = performance.now();
      const text = await tool(client, 'diagnostics', { paths: [FILE] });
      diagnostics.push(performance.now() - start);
      if (!text.includes(`${FILE}: fresh`)) throw new Error(`not fresh: ${text}`);
    }
    const definition: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const start = performance.now();
      await tool(client, 'definition', { path: FILE, line: 1, column: 22 });
      definition.push(performance.now() - start);
    }
    await client.close();
    return { diagnostics: summarize(diagnostics), definition: summarize(definition) };
  } finally {
    await stack.stop();
  }
}

async function viaStdio(): Promise<LatencySummary> {
  const workspace = copyDemoWorkspace();
  const client = new StdioLspClient(join(repoRoot, 'node_modules/.bin/pyright-langserver'), ['--stdio'], { cwd: workspace, env: process.env });
  const rootUri = pathToFileUri(workspace);
  await client.request('initialize', {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: 'bench' }],
    capabilities: { publishDiagnostics: { versionSupport: true } },
  });
  client.notify('initialized', {});
  const uri = pathToFileUri(join(workspace, FILE));
  let version = 1;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version, text: readFileSync(join(workspace, FILE), 'utf8') } });
  await client.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === uri);
  const samples: number[] = [];
  for (let round = 2; round < ROUNDS + 2; round++) {
    const text = rewrite(join(workspace, FILE), round);
    const v = ++version;
    const published = client.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === uri && m.params?.version === v);
    const start = performance.now();
    client.notify('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges: [{ text }] });
    await published;
    samples.push(performance.now() - start);
  }
  client.notify('exit', null);
  return summarize(samples);
}

export async function mcpBench(): Promise<{ figures: Record<string, LatencySummary>; text: string }> {
  const stdio = await viaStdio();
  const mcp = await viaMcp();
  const row = (name: string, s: LatencySummary) => [name, s.p50.toFixed(0), s.p95.toFixed(0), s.mean.toFixed(0)];
  const text = table(
    ['mcp (ms), pyright on the demo, ' + `${ROUNDS} rounds`, 'p50', 'p95', 'mean'],
    [
      row('diagnostics after a one-line disk write (MCP, settled)', mcp.diagnostics),
      row('pyright alone over stdio: didChange to publishDiagnostics', stdio),
      row('warm definition (MCP round trip)', mcp.definition),
    ],
  );
  return { figures: { diagnostics: mcp.diagnostics, stdio, definition: mcp.definition }, text };
}
