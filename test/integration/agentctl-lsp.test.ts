import { CloseCode } from '@kandev/protocol';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentctl, taskPath, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { repoRoot } from '../support/build.js';

let temp: string;
let workspace: string;
let agentctl: RunningAgentctl;
/** The task's TMPDIR: each server gets a folder of its own under it. */
let taskTmp: string;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'agentctl-lsp-it-'));
  workspace = join(temp, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext' } }));
  writeFileSync(join(workspace, 'main.ts'), 'export const answer: number = 42;\nexport const doubled = answer * 2;\n');
  writeFileSync(join(workspace, 'main.py'), 'def greet(name: str) -> str:\n    return name\n');
  taskTmp = join(temp, 'tmp');
  mkdirSync(taskTmp);
  // The repo root's node_modules/.bin (typescript-language-server, pyright-langserver) is on the task PATH.
  agentctl = await startAgentctl({ workspace, env: { PATH: taskPath(), HOME: join(temp, 'home'), TMPDIR: taskTmp } });
});

afterAll(async () => {
  await agentctl?.stop();
  rmSync(temp, { recursive: true, force: true });
});

describe('agentctl LSP bridge with real language servers', () => {
  it('bridges typescript-language-server: ready with workspace identity, initialize, then hover', async () => {
    const client = agentctl.openStream('language=typescript&autoInstall=false');
    const ready = await client.status('ready');
    // Untrusted by default: agentctl names the TypeScript next to the launched server for the backend to pin.
    expect(ready).toEqual({
      status: 'ready',
      language: 'typescript',
      workspacePath: workspace,
      workspaceUri: `file://${workspace}`,
      repoSubpaths: [],
      // Untrusted servers run without network where bubblewrap works (docs/workspace-trust.md).
      trustedTools: {
        tools: { tsserver: realpathSync(join(repoRoot, 'node_modules/typescript/lib/tsserver.js')) },
        network: existsSync('/usr/bin/bwrap') ? 'off' : 'unavailable',
      },
      // The stream's id on this task host: what a restarted backend resumes.
      stream: expect.any(Number),
    });
    const rootUri = pathToFileURL(workspace).href;
    const init = await client.request('initialize', { processId: null, rootUri, workspaceFolders: [{ uri: rootUri, name: 'ws' }], capabilities: {} });
    expect(init.result).toMatchObject({ capabilities: { hoverProvider: true } });
    client.notify('initialized', {});
    const uri = pathToFileURL(join(workspace, 'main.ts')).href;
    client.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'typescript', version: 1, text: 'export const answer: number = 42;\nexport const doubled = answer * 2;\n' },
    });
    // Hover on `answer` in the second line.
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 25 } });
    expect(JSON.stringify(hover.result)).toContain('const answer: number');
    // typescript-language-server makes a folder in TMPDIR for each tsserver it starts and never
    // removes it: they land in the server's own folder, not in the task's TMPDIR.
    const own = readdirSync(taskTmp).filter((name) => name.startsWith('kandev-lsp-'));
    expect(own).toHaveLength(1);
    expect(readdirSync(join(taskTmp, own[0] as string)).length).toBeGreaterThan(0);
    expect(readdirSync(taskTmp).filter((name) => /^[0-9a-f]{32}$/.test(name))).toEqual([]);
    const serverPid = agentctl.logs.filter((l) => l.event === 'server_started').at(-1)?.pid;
    const shutdown = await client.request('shutdown', null);
    expect(shutdown.error).toBeUndefined();
    client.close();
    expect((await client.closed).code).toBe(1000);
    // ... and that folder goes with the server's tree, before the reap is reported.
    while (!agentctl.logs.some((l) => l.event === 'reap_done' && l.pid === serverPid)) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(join(taskTmp, own[0] as string))).toBe(false);
  });

  it('bridges pyright-langserver through initialize', async () => {
    const client = agentctl.openStream('language=python&autoInstall=false');
    await client.status('ready');
    const rootUri = pathToFileURL(workspace).href;
    const init = await client.request('initialize', { processId: null, rootUri, capabilities: {} });
    expect(init.result).toMatchObject({ capabilities: { textDocumentSync: 2, hoverProvider: { workDoneProgress: true } } });
    // The server's own notifications flow through the bridge unchanged too.
    expect(client.frames.some((f) => f.method === 'window/logMessage')).toBe(true);
    client.close();
    await client.closed;
  });

  it('refuses the stream upgrade without the bearer token and starts nothing', async () => {
    const client = agentctl.openStream('language=typescript&autoInstall=false', null);
    expect(await client.opened).toBe(false);
    expect(client.refusedStatus).toBe(401);
    const wrong = agentctl.openStream('language=typescript&autoInstall=false', 'not-the-token');
    expect(await wrong.opened).toBe(false);
    expect(wrong.refusedStatus).toBe(401);
    // The log travels on stderr, apart from the HTTP answer: wait for both refusals instead of
    // assuming order. The log is one ordered stream, so a stream_open that a refused upgrade had
    // wrongly caused would be in it by now.
    while (agentctl.logs.filter((l) => l.event === 'auth_refused').length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(agentctl.logs.filter((l) => l.event === 'auth_refused')).toHaveLength(2);
    // Refused upgrades never reach the stream code: only the two streams above were ever opened.
    expect(agentctl.logs.filter((l) => l.event === 'stream_open')).toHaveLength(2);
  });

  it('closes 4002 for an unknown language on the accepted socket', async () => {
    const client = agentctl.openStream('language=cobol&autoInstall=false');
    expect(await client.closed).toEqual({ code: CloseCode.Unavailable, reason: '' });
  });

  it('never writes the token into its logs', () => {
    expect(agentctl.logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(agentctl.logs)).not.toContain(agentctl.token);
  });
});
