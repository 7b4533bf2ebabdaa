import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@kandev/protocol';
import { repoRoot } from '../support/build.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, hoverText, openFile, setTrust } from './trust-support.js';

/**
 * Workspace trust, TypeScript (docs/workspace-trust.md): the repository ships its own
 * node_modules/typescript/lib/tsserver.js that records that it ran and then starts the real
 * tsserver. typescript-language-server prefers a workspace TypeScript, so without the broker's pin
 * opening a .ts file runs it.
 */
const realTsserver = realpathSync(join(repoRoot, 'node_modules/typescript/lib/tsserver.js'));
const ws = hostileWorkspace('ts', {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }),
  'a.ts': 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\nexport const n: number = "not a number";\n',
  'node_modules/typescript/package.json': JSON.stringify({ name: 'typescript', version: '6.0.0', main: './lib/typescript.js' }),
  'node_modules/typescript/lib/typescript.js': 'module.exports = {};\n',
  'node_modules/typescript/lib/tsserver.js': `require('node:fs').appendFileSync('@MARKER@', 'workspace tsserver ' + process.pid + '\\n');\nrequire(${JSON.stringify(realTsserver)});\n`,
});
const source = {
  path: 'a.ts',
  languageId: 'typescript',
  text: 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\nexport const n: number = "not a number";\n',
};
const hostileOptions = { tsserver: { path: join(ws.dir, 'node_modules/typescript/lib/tsserver.js') }, plugins: [{ name: 'x', location: ws.dir }] };

let stack: RunningStack;
let task: Task;
let sessionId: string;

beforeAll(async () => {
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  task = await stack.createTask({ title: 'hostile ts', workspace: ws.dir });
  sessionId = (await stack.startSession(task.id)).id;
});

afterAll(async () => {
  await stack?.stop();
});

describe('workspace trust: TypeScript', () => {
  it('a new task does not trust its workspace; PATCH validates and records the switch', async () => {
    expect(task.trustWorkspaceTools).toBe(false);
    await expect(stack.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: 'yes' } })).rejects.toThrow(/400/);
    await expect(stack.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { repositories: [] } })).rejects.toThrow(/400/);
    await expect(stack.api('/api/tasks/missing', { method: 'PATCH', body: { trustWorkspaceTools: true } })).rejects.toThrow(/404/);
    expect((await stack.api<Task>(`/api/tasks/${task.id}`)).trustWorkspaceTools).toBe(false);
  });

  it('untrusted: the real typescript-language-server answers with the task host TypeScript; the workspace tsserver.js never runs, whatever the browser asks', async () => {
    const { client, uri, init } = await openFile(stack, sessionId, 'typescript', source, hostileOptions);
    expect(init.result.capabilities.hoverProvider).toBeTruthy();
    const version = await client.waitFor((f) => f.method === '$/typescriptVersion');
    expect(version.params.source).toBe('user-setting');
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain('not assignable');
    expect(await hoverText(client, uri, 0, 17)).toContain('greet(name: string): string');
    expect(ws.runs()).toEqual([]);
    await client.leave();
  });

  it('trusted: the next server start runs the workspace TypeScript (the marker proves this test can fail)', async () => {
    expect((await setTrust(stack, task.id, true)).trustWorkspaceTools).toBe(true);
    const { client, uri } = await openFile(stack, sessionId, 'typescript', source);
    const version = await client.waitFor((f) => f.method === '$/typescriptVersion');
    expect(version.params.source).toBe('workspace');
    await diagnosticsOf(client, uri);
    // typescript-language-server starts a syntax and a semantic tsserver: each is the workspace's.
    expect(ws.runs().length).toBeGreaterThan(0);
    expect(ws.runs().every((line) => /^workspace tsserver \d+$/.test(line))).toBe(true);
    await client.leave();
  });

  it('trust taken back: the next server start is pinned again and the workspace tsserver.js does not run again', async () => {
    const before = ws.runs().length;
    await setTrust(stack, task.id, false);
    const { client, uri } = await openFile(stack, sessionId, 'typescript', source, hostileOptions);
    expect((await client.waitFor((f) => f.method === '$/typescriptVersion')).params.source).toBe('user-setting');
    await diagnosticsOf(client, uri);
    expect(ws.runs()).toHaveLength(before);
    await client.leave();
  });
});
