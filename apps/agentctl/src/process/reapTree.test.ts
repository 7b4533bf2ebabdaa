import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeLspFrame, LspFrameDecoder } from '@kandev/protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { alivePids } from '../testing/agentctlProcess.js';
import { installScriptedServer } from '../testing/scriptedServer.js';
import { TREE_SCRIPT } from '../testing/treeScript.js';
import { launchServer, type LaunchedServer } from './launch.js';
import { launchCommand } from './launchCommand.js';
import { descendantsOf, listProcesses } from './processTable.js';
import { childProcessRoot, markedEnv, newTreeMarker, reapTree, TREE_MARKER_VARIABLE } from './reapTree.js';

const onLinux = process.platform === 'linux';
const temp = mkdtempSync(join(tmpdir(), 'agentctl-reap-'));
const taskEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
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
    const launched = await launchServer({ command: launchCommand(shim, [], process.platform, {}), cwd: temp, env: taskEnv, marker });
    if (!launched.ok) throw new Error(launched.error.message);
    const pids = await spawnDescendants(launched.value);
    expect(pids).toHaveLength(4);
    expect(await alivePids(pids)).toEqual(pids);
    const report = await reapTree(launched.value, { graceMs: 500 });
    expect(report.survivors).toEqual([]);
    expect(await alivePids([launched.value.pid, ...pids])).toEqual([]);
  });

  it('reaps the orphans of a server that already exited on its own', async () => {
    const shim = installScriptedServer(join(temp, 'bin'), 'exiting-server');
    const marker = newTreeMarker();
    const launched = await launchServer({ command: launchCommand(shim, [], process.platform, {}), cwd: temp, env: taskEnv, marker });
    if (!launched.ok) throw new Error(launched.error.message);
    const pids = await spawnDescendants(launched.value);
    launched.value.child.stdin.write(encodeLspFrame(JSON.stringify({ jsonrpc: '2.0', method: 'test/exit', params: { code: 3 } })));
    expect(await launched.value.exited).toEqual({ code: 3, signal: null });
    expect((await alivePids(pids)).length).toBeGreaterThan(0);
    await reapTree(launched.value, { graceMs: 500 });
    expect(await alivePids(pids)).toEqual([]);
  });

  it('reports a launch failure as a value (ENOENT), never an exception', async () => {
    const r = await launchServer({ command: launchCommand(join(temp, 'missing'), [], process.platform, {}), cwd: temp, env: {}, marker: 'x' });
    expect(r).toMatchObject({ ok: false, error: { code: 'ENOENT' } });
  });
});

describe.runIf(onLinux)('process tree reaping without a grace period (installers)', () => {
  it('S56: ends every descendant, including one that left the group', async () => {
    const child = spawn('sh', ['-c', TREE_SCRIPT], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = child.pid!;
    let before: number[] = [];
    try {
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      // Four descendants, one of which has left the group: forked, it keeps the group until `setsid`
      // runs in it (a loaded machine showed all four with the group left by none yet).
      await vi.waitFor(() => {
        before = descendantsOf(pid).map((p) => p.pid);
        expect(before.length).toBeGreaterThanOrEqual(4);
        expect(listProcesses().some((p) => before.includes(p.pid) && p.pgid !== pid)).toBe(true);
      });

      expect((await reapTree(childProcessRoot(child), { graceMs: 0 })).survivors).toEqual([]);
      expect(await alivePids([pid, ...before])).toEqual([]);
    } finally {
      // A failure above must not leave five-minute sleeps to the files that share this process.
      const left = [pid, ...before, ...descendantsOf(pid).map((p) => p.pid)];
      for (const p of await alivePids(left)) process.kill(p, 'SIGKILL');
    }
  });

  it('finds by its marker a setsid escapee whose parent exited, after the root itself exited', async () => {
    const marker = newTreeMarker();
    // The root exits at once; its only descendant left the group and was re-parented away from it.
    const child = spawn('sh', ['-c', 'setsid sleep 300 >/dev/null 2>&1 & echo $!'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: markedEnv(taskEnv, marker),
    });
    const escapee = Number(await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))));
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await alivePids([escapee])).toEqual([escapee]);
    // Once it has called setsid, neither the group nor a parent link leads to it.
    await vi.waitFor(() => expect(descendantsOf(child.pid!).map((p) => p.pid)).not.toContain(escapee));

    const report = await reapTree(childProcessRoot(child, marker), { graceMs: 0 });
    expect(report).toMatchObject({ descendants: 1, survivors: [] });
    expect(await alivePids([escapee])).toEqual([]);
  });
});

describe('tree marker environment', () => {
  it('drops every AGENTCTL_* variable (the token above all) and adds the tree marker', () => {
    const env = markedEnv({ AGENTCTL_TOKEN: 'secret', AGENTCTL_WORKSPACE: '/w', agentctl_port: '1', PATH: '/bin', HOME: '/h' }, 'm-1');
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', [TREE_MARKER_VARIABLE]: 'm-1' });
  });
});
