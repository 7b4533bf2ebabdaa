import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskPath } from '../support/stack.js';
import {
  aliveWhen,
  childPids,
  descendants,
  serverChildren,
  eventually,
  isAlive,
  LeaseClient,
  startLeaseBackend,
  startSession,
  type LeaseBackend,
} from './lease-support.js';

/**
 * Continuity with real language servers: typescript-language-server (from the repository's
 * node_modules/.bin) and gopls (Debian's /usr/bin/gopls). The witness of "the same process" is the
 * server process agentctl launched (its direct child, from /proc), which a resume must leave
 * unchanged; gopls's own `go list` children come and go and are not counted.
 */
let stack: LeaseBackend;
const root = mkdtempSync(join(tmpdir(), 'kandev-lease-real-'));

beforeAll(async () => {
  stack = await startLeaseBackend();
});

afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

async function session(name: string, files: Record<string, string>): Promise<{ sessionId: string; agentctlPid: number; dir: string }> {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  const env = { PATH: taskPath(), HOME: join(root, `${name}-home`), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  mkdirSync(env.HOME, { recursive: true });
  const task = await stack.api('POST', '/api/tasks', { title: name, executor: 'local_pc', repositories: [{ path: dir }], env });
  const sessionId = await startSession(stack, task.json.id);
  return { sessionId, agentctlPid: stack.backend.sessions.liveHost(sessionId)?.pid as number, dir };
}

function diagnosticsFor(client: LeaseClient, uri: string, from = 0): Array<Record<string, any>> {
  return client.frames.slice(from).filter((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri);
}

const persisted = 'export function hello(name: string): string {\n  return `hi ${name}`;\n}\nexport const n: number = 1;\n';
const unsaved = 'export function hello(name: string): string {\n  return `hi ${name}`;\n}\nexport const n: number = "not a number";\n';

describe('typescript-language-server', () => {
  it("C01 C02 C03 a closed tab leaves the same tsserver running; the reopened persisted file gets fresh diagnostics, never the unsaved buffer's", async () => {
    const { sessionId, agentctlPid, dir } = await session('ts', {
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022' } }),
      'a.ts': persisted,
    });
    const first = new LeaseClient(stack.url, sessionId, 'typescript');
    const { ready, result } = await first.initialize();
    expect(result.result.capabilities.hoverProvider).toBeTruthy();
    const uri = `${ready.workspaceUri}/a.ts`;
    // An unsaved buffer with a type error: its diagnostics must not outlive the tab (C03).
    first.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 7, text: unsaved } });
    await first.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.length > 0);
    expect(JSON.stringify(diagnosticsFor(first, uri))).toContain('not assignable');
    const server = serverChildren(agentctlPid);
    expect(server).toHaveLength(1);
    const servers = descendants(agentctlPid); // the server and its tsserver processes

    await first.leave();
    expect(await eventually(() => stack.backend.leases.list().some((l) => l.id === ready.lease && l.detachedAt !== undefined))).toBe(true);
    expect(serverChildren(agentctlPid)).toEqual(server);

    const back = new LeaseClient(stack.url, sessionId, 'typescript', ready.lease);
    const resumed = await back.waitFor((f) => f.status === 'ready');
    expect(resumed).toMatchObject({ resumed: true, lease: ready.lease, workspacePath: dir });
    expect(resumed.initializeResult.capabilities).toEqual(result.result.capabilities);
    await back.resume([{ uri, text: persisted, version: 1 }]);
    const synchronizedAt = back.frames.findIndex((f) => f.status === 'synchronized');
    // Fresh analysis of the persisted contents: an empty publication for version 1 arrives.
    await back.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri);
    expect(diagnosticsFor(back, uri).every((f) => f.params.diagnostics.length === 0)).toBe(true);
    expect(back.frames.findIndex((f) => f.method === 'textDocument/publishDiagnostics')).toBeGreaterThan(synchronizedAt);
    expect(JSON.stringify(back.frames)).not.toContain('not assignable');

    let hover: Record<string, any> | undefined;
    for (let attempt = 0; attempt < 50 && !hover?.result; attempt++) {
      hover = await back.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 17 } });
      if (!hover.result) await new Promise((r) => setTimeout(r, 200));
    }
    expect(JSON.stringify(hover?.result?.contents)).toContain('hello(name: string): string');
    expect(serverChildren(agentctlPid)).toEqual(server);
    servers.forEach((pid) => expect(isAlive(pid)).toBe(true));

    const aliveAtReleased = aliveWhen(
      back,
      (f) => f.status === 'released',
      () => servers,
    );
    back.control({ control: 'release', reason: 'stop' });
    expect(await aliveAtReleased).toEqual([]);
  });
});

describe('gopls', () => {
  it('C01 a ready Go lease survives its tab closing: the same gopls keeps running and a returning tab resumes it', async () => {
    const main = 'package main\n\nimport "fmt"\n\nfunc greet(name string) string { return "hi " + name }\n\nfunc main() { fmt.Println(greet("go")) }\n';
    const { sessionId, agentctlPid } = await session('go', { 'go.mod': 'module example.com/lease\n\ngo 1.19\n', 'main.go': main });
    const first = new LeaseClient(stack.url, sessionId, 'go');
    const { ready, result } = await first.initialize();
    expect(result.result.capabilities.hoverProvider).toBeTruthy();
    const uri = `${ready.workspaceUri}/main.go`;
    first.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'go', version: 1, text: main } });
    const gopls = childPids(agentctlPid, 'gopls');
    expect(gopls).toHaveLength(1);

    await first.leave();
    expect(await eventually(() => stack.backend.leases.list().some((l) => l.id === ready.lease && l.detachedAt !== undefined))).toBe(true);
    // At the moment the lease is detached its gopls still runs; the same process answering the
    // resumed tab's hover below proves it was never restarted in between (no fixed sleep needed).
    expect(childPids(agentctlPid, 'gopls')).toEqual(gopls);
    gopls.forEach((pid) => expect(isAlive(pid)).toBe(true));

    const back = new LeaseClient(stack.url, sessionId, 'go', ready.lease);
    expect(await back.resume([{ uri, text: main, version: 1 }])).toMatchObject({ resumed: true, lease: ready.lease });
    let hover: Record<string, any> | undefined;
    for (let attempt = 0; attempt < 50 && !hover?.result; attempt++) {
      hover = await back.request('textDocument/hover', { textDocument: { uri }, position: { line: 4, character: 6 } });
      if (!hover.result) await new Promise((r) => setTimeout(r, 200));
    }
    expect(JSON.stringify(hover?.result?.contents)).toContain('func greet(name string) string');
    expect(childPids(agentctlPid, 'gopls')).toEqual(gopls);
    await back.leave();
  });
});
