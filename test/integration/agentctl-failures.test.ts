import { CloseCode } from '@kandev/protocol';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alivePids, startAgentctl, taskPath, type LspTestClient, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { installScriptedServer } from '../../apps/agentctl/src/testing/scriptedServer.js';

let temp: string;
let workspace: string;
let agentctl: RunningAgentctl;
let plantedWitness: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (by polling, not by a fixed delay) until agentctl has logged a matching line. */
async function logged(match: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (;;) {
    const line = agentctl.logs.find(match);
    if (line) return line;
    await sleep(20);
  }
}

async function readyGopls(): Promise<{ client: LspTestClient; pid: number }> {
  const before = agentctl.logs.filter((l) => l.event === 'server_started').length;
  const client = agentctl.openStream('language=go&autoInstall=false');
  await client.status('ready');
  // stderr (logs) and the socket are separate channels: wait for the log line, do not assume order.
  await logged(() => agentctl.logs.filter((l) => l.event === 'server_started').length === before + 1);
  const started = agentctl.logs.filter((l) => l.event === 'server_started');
  return { client, pid: Number(started[started.length - 1]?.pid) };
}

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'agentctl-fail-it-'));
  workspace = join(temp, 'workspace');
  const bin = join(temp, 'bin');
  mkdirSync(bin, { recursive: true });
  // S28: a non-executable file named like the server, first on the task PATH.
  writeFileSync(join(bin, 'typescript-language-server'), '#!/bin/sh\necho never\n');
  chmodSync(join(bin, 'typescript-language-server'), 0o644);
  // gopls is the scriptable server that exits, misbehaves and spawns descendants on request.
  installScriptedServer(bin, 'gopls');
  // S57: the repository plants its own kotlin-lsp; running it would leave a witness file.
  plantedWitness = join(temp, 'planted-ran');
  const planted = join(workspace, '.kandev/lsp-servers');
  mkdirSync(planted, { recursive: true });
  writeFileSync(join(planted, 'kotlin-lsp'), `#!/bin/sh\ntouch "${plantedWitness}"\n`);
  chmodSync(join(planted, 'kotlin-lsp'), 0o755);
  agentctl = await startAgentctl({
    workspace,
    // HOME is the workspace too, so the managed root would be the repository's .kandev/lsp-servers.
    env: { PATH: `${taskPath(bin)}:${planted}:.kandev/lsp-servers`, HOME: workspace },
  });
});

afterAll(async () => {
  await agentctl?.stop();
  rmSync(temp, { recursive: true, force: true });
});

describe('agentctl LSP stream failures', () => {
  it('S28 a discovered server that cannot be launched closes 4008 with no reason; the detail stays in the log', async () => {
    const client = agentctl.openStream('language=typescript&autoInstall=false');
    expect(await client.closed).toEqual({ code: CloseCode.StartFailed, reason: '' });
    expect(client.frames).toEqual([]);
    const failure = await logged((l) => l.event === 'launch_failed');
    expect(failure).toMatchObject({ errorCode: 'EACCES', path: join(temp, 'bin/typescript-language-server') });
  });

  it('S31 a server that exits while the stream is open closes 4006 with no reason', async () => {
    const { client, pid } = await readyGopls();
    const init = await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    expect(init.result).toMatchObject({ serverInfo: { name: 'scripted' } });
    client.notify('test/exit', { code: 7 });
    expect(await client.closed).toEqual({ code: CloseCode.ServerExited, reason: '' });
    expect(await logged((l) => l.event === 'server_exited' && l.exitCode === 7)).toBeTruthy();
    expect(await alivePids([pid])).toEqual([]);
  });

  it('S57 never runs a repository’s .kandev/lsp-servers/kotlin-lsp: Kotlin closes 4007 without installing', async () => {
    const client = agentctl.openStream('language=kotlin&autoInstall=true');
    expect(await client.closed).toEqual({ code: CloseCode.NoInstaller, reason: '' });
    expect(client.frames).toEqual([]);
    expect(existsSync(plantedWitness)).toBe(false);
  });

  it('a missing auto-installable server with auto-install off closes 4001 with no reason and installs nothing', async () => {
    // rust-analyzer is on no directory of this task PATH, and Linux hosts have its installer.
    const rust = agentctl.openStream('language=rust&autoInstall=false');
    expect(await rust.closed).toEqual({ code: CloseCode.BinaryMissingInstallable, reason: '' });
    expect(rust.frames).toEqual([]);
  });

  it('keeps server stderr in the task-host log and hands it on only as server_stderr frames, never inside JSON-RPC', async () => {
    const { client } = await readyGopls();
    const reply = await client.request('test/stderr', { text: 'stderr-marker-123' });
    expect(reply.result).toBe(true);
    await logged((l) => l.event === 'server_stderr' && String(l.line).includes('stderr-marker-123'));
    const carrying = () => client.frames.filter((f) => JSON.stringify(f).includes('stderr-marker-123'));
    await expect.poll(() => carrying().length).toBeGreaterThan(0);
    expect(carrying().map((f) => f.status)).toEqual(carrying().map(() => 'server_stderr'));
    expect(carrying().some((f) => 'jsonrpc' in f)).toBe(false);
    client.close();
    await client.closed;
  });

  const badClientFrames: Array<[string, (c: LspTestClient) => void, number]> = [
    ['text that is not JSON', (c) => c.ws.send('{not json'), 1007],
    ['a JSON array', (c) => c.ws.send('[{"jsonrpc":"2.0","method":"x"}]'), 1007],
    ['an object without jsonrpc 2.0', (c) => c.ws.send('{"jsonrpc":"1.0","method":"x"}'), 1007],
    ['a control frame meant for the backend', (c) => c.ws.send('{"control":"attachment-ready"}'), 1007],
    ['a binary frame', (c) => c.ws.send(Buffer.from('{"jsonrpc":"2.0"}')), 1007],
    ['a frame over 16 MiB', (c) => c.ws.send(`{"jsonrpc":"2.0","method":"x","params":"${'a'.repeat(16 * 1024 * 1024)}"}`), 1009],
  ];
  for (const [what, send, code] of badClientFrames) {
    it(`closes ${code} on ${what}, reaps that server, and keeps serving`, async () => {
      const { client, pid } = await readyGopls();
      send(client);
      expect((await client.closed).code).toBe(code);
      await logged((l) => l.event === 'reap_done' && l.pid === pid);
      expect(await alivePids([pid])).toEqual([]);
      expect((await agentctl.api('/api/v1/health')).status).toBe(200);
    });
  }

  const badServerOutput: Array<[string, string, number]> = [
    ['a malformed header', 'Content-Length: nope\r\n\r\n', 1007],
    ['a header announcing a body over 16 MiB', `Content-Length: ${16 * 1024 * 1024 + 1}\r\n\r\n`, 1009],
  ];
  for (const [what, raw, code] of badServerOutput) {
    it(`kills a server that writes ${what} and closes ${code}`, async () => {
      const { client, pid } = await readyGopls();
      client.notify('test/raw', { text: raw });
      expect((await client.closed).code).toBe(code);
      await logged((l) => l.event === 'server_bad_output' && l.stream !== undefined);
      await logged((l) => l.event === 'reap_done' && l.pid === pid);
      expect(await alivePids([pid])).toEqual([]);
    });
  }

  it('still bridges a fresh stream after all of the above', async () => {
    const { client } = await readyGopls();
    const init = await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    expect(init.result).toMatchObject({ capabilities: { hoverProvider: true } });
    client.close();
    await client.closed;
    expect(agentctl.child.exitCode).toBeNull();
  });

  it('gives the server the task env without any AGENTCTL_* variable', async () => {
    const { client } = await readyGopls();
    const reply = await client.request('test/env', null);
    const env = reply.result as Record<string, string>;
    expect(Object.keys(env).filter((k) => k.startsWith('AGENTCTL_'))).toEqual([]);
    expect(env.HOME).toBe(workspace);
    client.close();
    await client.closed;
  });
});
