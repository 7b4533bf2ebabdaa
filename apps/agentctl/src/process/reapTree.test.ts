import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { hostFlavour } from '../resolve/flavour.js';
import { alivePids } from '../testing/agentctlProcess.js';
import { installScriptedServer } from '../testing/scriptedServer.js';
import { launchServer, type LaunchedServer } from './launch.js';
import { launchCommand } from './launchCommand.js';
import { reapTree } from './reapTree.js';
import { newTreeMarker, serverEnv } from './taskEnv.js';

const temp = mkdtempSync(join(tmpdir(), 'agentctl-reap-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function spawnDescendants(server: LaunchedServer): Promise<number[]> {
  const decoder = new LspFrameDecoder();
  const reply = new Promise<number[]>((resolve) => {
    server.child.stdout.on('data', (chunk: Buffer) => {
      for (const body of decoder.push(chunk)) {
        const msg = JSON.parse(body) as { id?: number; result?: { pids: number[] } };
        if (msg.id === 1 && msg.result) resolve(msg.result.pids);
      }
    });
  });
  server.child.stdin.write(encodeLspFrame(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test/spawn' })));
  return reply;
}

describe('process tree reaping', () => {
  it('S55 reaps the server, plain and setsid children, an orphaned grandchild and a SIGTERM-ignoring child', async () => {
    const shim = installScriptedServer(join(temp, 'bin'), 'tree-server');
    const marker = newTreeMarker();
    const launched = await launchServer({ command: launchCommand(shim, [], hostFlavour(), {}), cwd: temp, env: serverEnv({ PATH: process.env.PATH ?? '/usr/bin:/bin' }, marker), marker });
    if (!launched.ok) throw new Error(launched.message);
    const pids = await spawnDescendants(launched.server);
    expect(pids).toHaveLength(4);
    expect(await alivePids(pids)).toEqual(pids);
    const report = await reapTree(launched.server, { graceMs: 500 });
    expect(report.survivors).toEqual([]);
    expect(await alivePids([launched.server.pid, ...pids])).toEqual([]);
  });

  it('reaps the orphans of a server that already exited on its own', async () => {
    const shim = installScriptedServer(join(temp, 'bin'), 'exiting-server');
    const marker = newTreeMarker();
    const launched = await launchServer({ command: launchCommand(shim, [], hostFlavour(), {}), cwd: temp, env: serverEnv({ PATH: process.env.PATH ?? '/usr/bin:/bin' }, marker), marker });
    if (!launched.ok) throw new Error(launched.message);
    const pids = await spawnDescendants(launched.server);
    launched.server.child.stdin.write(encodeLspFrame(JSON.stringify({ jsonrpc: '2.0', method: 'test/exit', params: { code: 3 } })));
    expect(await launched.server.exited).toEqual({ code: 3, signal: null });
    expect((await alivePids(pids)).length).toBeGreaterThan(0);
    await reapTree(launched.server, { graceMs: 500 });
    expect(await alivePids(pids)).toEqual([]);
  });

  it('reports a launch failure as a value (ENOENT), never an exception', async () => {
    const r = await launchServer({ command: launchCommand(join(temp, 'missing'), [], hostFlavour(), {}), cwd: temp, env: {}, marker: 'x' });
    expect(r).toMatchObject({ ok: false, errorCode: 'ENOENT' });
  });
});
