import { CloseCode, type LiveStreamsReply } from '@kandev/protocol';
import { ManualClock } from '@kandev/kit';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../base/log.js';
import { createAgentctlServer, type AgentctlServer } from '../server.js';
import { alivePids, LspTestClient } from '../testing/agentctlProcess.js';
import { installScriptedServer } from '../testing/scriptedServer.js';

const temp = mkdtempSync(join(tmpdir(), 'agentctl-parked-'));
const workspace = join(temp, 'ws');
const bin = join(temp, 'bin');
mkdirSync(workspace);
installScriptedServer(bin, 'pyright-langserver');
const token = 'unit-token';
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let server: AgentctlServer | undefined;
afterEach(async () => {
  await server?.shutdown();
  server = undefined;
});

const GRACE_MS = 60_000;

async function start(clock: ManualClock) {
  server = await createAgentctlServer({
    token,
    workspacePath: workspace,
    repoSubpaths: [],
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: join(temp, 'home') },
    platform: process.platform,
    installer: undefined,
    logger: silentLogger,
    timings: { wsWriteDeadlineMs: 5_000, stdinCutoffMs: 30_000, reapGraceMs: 500, exitFlushMs: 200, exitReadGraceMs: 200, parkGraceMs: GRACE_MS, clock },
  });
  const port = await server.listen('127.0.0.1', 0);
  const base = `127.0.0.1:${port}`;
  return {
    open: (query: string) => new LspTestClient(`ws://${base}/api/v1/lsp/stream?${query}`, token),
    streams: async () =>
      ((await (await fetch(`http://${base}/api/v1/lsp/streams`, { headers: { authorization: `Bearer ${token}` } })).json()) as LiveStreamsReply).streams,
  };
}

const URI = `file://${workspace}/a.py`;

describe('a stream whose backend is lost is parked for the next one', () => {
  it('a socket lost without a close keeps the server; its account lists the open documents; a new socket resumes the same server', async () => {
    const clock = new ManualClock();
    const host = await start(clock);
    const first = host.open('language=python&autoInstall=false');
    const ready = await first.status('ready');
    expect(ready.stream).toEqual(expect.any(Number));
    await first.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    first.notify('textDocument/didOpen', { textDocument: { uri: URI, languageId: 'python', version: 3, text: 'x = 1\n' } });
    const env = await first.request('test/env', {});
    first.ws.terminate();
    await first.closed;

    await expect
      .poll(host.streams)
      .toEqual([expect.objectContaining({ stream: ready.stream, language: 'python', parked: true, documents: [{ uri: URI, version: 3 }], maxRequestId: 2 })]);
    const [account] = await host.streams();
    expect(await alivePids([account!.pid!])).toEqual([account!.pid]);

    const second = host.open(`resume=${String(ready.stream)}`);
    expect(await second.opened).toBe(true);
    const again = await second.request('test/env', {});
    // The very same process answers (its environment, pid included, is the one it started with).
    expect(again.result).toEqual(env.result);
    expect((await host.streams())[0]).toMatchObject({ parked: false });

    // Lost again and nobody comes back within the grace: closed and reaped.
    second.ws.terminate();
    await second.closed;
    await expect.poll(async () => (await host.streams())[0]?.parked).toBe(true);
    clock.advance(GRACE_MS - 1);
    expect(await host.streams()).toHaveLength(1);
    clock.advance(1);
    await expect.poll(host.streams).toEqual([]);
    await expect.poll(() => alivePids([account!.pid!])).toEqual([]);
  });

  it('a close with a close frame still ends the stream, and resuming a stream that is gone closes 4006', async () => {
    const host = await start(new ManualClock());
    const client = host.open('language=python&autoInstall=false');
    const ready = await client.status('ready');
    client.close();
    await client.closed;
    await expect.poll(host.streams).toEqual([]);
    const late = host.open(`resume=${String(ready.stream)}`);
    expect((await late.closed).code).toBe(CloseCode.ServerExited);
  });
});
