/**
 * Support for the MCP endpoint tests: the real backend in this process (lease-support), a Local PC
 * task on a copy of the demo workspace, and the official SDK client connected with an agent token.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { copyDemoWorkspace, taskPath } from '../support/stack.js';
import { startSession, type LeaseBackend } from './lease-support.js';

export interface DemoSession {
  sessionId: string;
  taskId: string;
  workspace: string;
}

export const DEMO_LANGUAGES = ['typescript', 'python', 'go'];

export async function demoSession(stack: LeaseBackend, options: { trust?: boolean; workspace?: string } = {}): Promise<DemoSession> {
  const workspace = options.workspace ?? copyDemoWorkspace();
  const env = { PATH: taskPath(), HOME: join(workspace, '.home'), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  const body: Record<string, unknown> = { title: 'mcp', executor: 'local_pc', repositories: [{ path: workspace }], env };
  if (options.trust) body.trustWorkspaceTools = true;
  const task = await stack.api('POST', '/api/tasks', body);
  if (task.status !== 201) throw new Error(JSON.stringify(task.json));
  const sessionId = await startSession(stack, task.json.id);
  return { sessionId, taskId: task.json.id, workspace };
}

/** A fresh agent token for the session, through the access-token API (as `npm run mcp -- config`). */
export async function agentToken(stack: LeaseBackend, sessionId: string): Promise<{ url: string; token: string }> {
  const reply = await stack.api('POST', `/api/sessions/${sessionId}/mcp-config`);
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.json));
  const server = reply.json.mcpServers.kandev;
  return { url: server.url, token: String(server.headers.Authorization).replace(/^Bearer /, '') };
}

export async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...result, text };
}
