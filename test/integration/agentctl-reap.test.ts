import { CloseCode } from '@kandev/protocol';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alivePids, startAgentctl, taskPath, type LspTestClient, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { installScriptedServer } from '../../apps/agentctl/src/testing/scriptedServer.js';

let temp: string;
let workspace: string;
let bin: string;
let agentctl: RunningAgentctl | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'agentctl-reap-it-'));
  workspace = join(temp, 'workspace');
  bin = join(temp, 'bin');
  mkdirSync(workspace);
  installScriptedServer(bin, 'gopls');
});

afterEach(async () => {
  await agentctl?.stop();
  agentctl = undefined;
});

afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function start(env: Record<string, string> = {}): Promise<RunningAgentctl> {
  agentctl = await startAgentctl({ workspace, env: { PATH: taskPath(bin), HOME: join(temp, 'home'), ...env } });
  return agentctl;
}

/** Opens a stream whose server has started four descendants (plain, setsid, orphaned setsid, SIGTERM-proof). */
async function serverWithDescendants(a: RunningAgentctl): Promise<{ client: LspTestClient; tree: number[] }> {
  const before = a.logs.filter((l) => l.event === 'server_started').length;
  const client = a.openStream('language=go&autoInstall=false');
  await client.status('ready');
  // stderr (logs) and the socket are separate channels: wait for the log line, do not assume order.
  while (a.logs.filter((l) => l.event === 'server_started').length === before) await sleep(20);
  const started = a.logs.filter((l) => l.event === 'server_started');
  const serverPid = Number(started[started.length - 1]?.pid);
  const reply = await client.request('test/spawn', null);
  const pids = (reply.result as { pids: number[] }).pids;
  expect(pids).toHaveLength(4);
  const tree = [serverPid, ...pids];
  // The tree is really running before agentctl is asked to end it.
  expect(await alivePids(tree)).toEqual(tree);
  return { client, tree };
}

describe('agentctl reaps whole process trees', () => {
  it('S55 when the stream closes, no descendant of the server remains (setsid and orphaned ones included)', async () => {
    const a = await start();
    const { client, tree } = await serverWithDescendants(a);
    client.close();
    await client.closed;
    const serverPid = tree[0];
    while (!a.logs.some((l) => l.event === 'reap_done' && l.pid === serverPid)) await sleep(20);
    expect(await alivePids(tree)).toEqual([]);
    expect(a.logs.find((l) => l.event === 'reap_done' && l.pid === serverPid)).toMatchObject({ survivors: 0 });
  });

  it('S55 on SIGTERM agentctl closes every stream 1001 without reason, reaps every tree and exits 0', async () => {
    const a = await start();
    const first = await serverWithDescendants(a);
    const second = await serverWithDescendants(a);
    const exitCode = await a.stop('SIGTERM');
    agentctl = undefined;
    expect(exitCode).toBe(0);
    expect(await first.client.closed).toEqual({ code: CloseCode.GoingAway, reason: '' });
    expect(await second.client.closed).toEqual({ code: CloseCode.GoingAway, reason: '' });
    expect(await alivePids([...first.tree, ...second.tree])).toEqual([]);
    expect(a.logs.filter((l) => l.event === 'reap_done')).toHaveLength(2);
  });

  it('S55 a server that exits on its own still has its orphaned descendants reaped', async () => {
    const a = await start();
    const { client, tree } = await serverWithDescendants(a);
    client.notify('test/exit', { code: 0 });
    expect(await client.closed).toEqual({ code: CloseCode.ServerExited, reason: '' });
    const serverPid = tree[0];
    while (!a.logs.some((l) => l.event === 'reap_done' && l.pid === serverPid)) await sleep(20);
    expect(await alivePids(tree)).toEqual([]);
  });

  it("a server gets a temporary folder of its own (its TMPDIR, under the task's), gone with its tree, before the reap is reported", async () => {
    const taskTmp = join(temp, 'task-tmp');
    mkdirSync(taskTmp, { recursive: true });
    const a = await start({ TMPDIR: taskTmp });
    const { client, tree } = await serverWithDescendants(a);
    const own = ((await client.request('test/env', null)).result as Record<string, string>).TMPDIR as string;
    expect(dirname(own)).toBe(taskTmp);
    expect(basename(own)).toMatch(/^kandev-lsp-/);
    // What servers leave behind (typescript-language-server: a folder per tsserver it starts).
    mkdirSync(join(own, 'left-behind'));
    writeFileSync(join(own, 'left-behind', 'tscancellation'), '');
    client.close();
    await client.closed;
    const serverPid = tree[0];
    while (!a.logs.some((l) => l.event === 'reap_done' && l.pid === serverPid)) await sleep(20);
    expect(existsSync(own)).toBe(false);
    // (agentctl itself runs under tsx here, whose cache is in the same TMPDIR.)
    expect(readdirSync(taskTmp).filter((name) => name.startsWith('kandev-lsp-'))).toEqual([]);
  });
});
