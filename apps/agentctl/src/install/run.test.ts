import { spawn } from 'node:child_process';
import { ManualClock } from '@kandev/kit';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { descendantsOf, listProcesses } from '../process/processTable.js';
import { childProcessRoot, reapTree } from '../process/reapTree.js';
import { TREE_SCRIPT } from '../testing/treeScript.js';
import { OutputTail } from './output.js';
import { runInstaller } from './run.js';

const onLinux = process.platform === 'linux';

function running(pid: number): boolean {
  return listProcesses().some((p) => p.pid === pid && p.state !== 'Z' && p.state !== 'X');
}

describe.runIf(onLinux)("runInstaller and the installer's process tree", () => {
  it('S56: runInstaller on abort kills the tree and reports cancelled, with nothing left running', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const output = new OutputTail((l) => seen.push(l));
    let pids: number[] = [];
    // The installer's own pid, from the spawn it was given: other unit files share this process
    // and its children (a tree of theirs once passed for this one). One such tree, the same shape,
    // is here first: taken for the installer's, it would outlive the abort.
    const decoy = spawn('sh', ['-c', TREE_SCRIPT], { detached: true, stdio: 'ignore' });
    onTestFinished(async () => {
      await reapTree(childProcessRoot(decoy), { graceMs: 0 });
    });
    await vi.waitFor(() => expect(descendantsOf(decoy.pid!).length).toBeGreaterThanOrEqual(4));
    let installer: number | undefined;
    const spawnAndNote: typeof spawn = ((...args: Parameters<typeof spawn>) => {
      const child = spawn(...args);
      installer = child.pid;
      return child;
    }) as typeof spawn;
    const run = runInstaller(
      { command: 'sh', args: ['-c', TREE_SCRIPT], env: process.env },
      { spawn: spawnAndNote, signal: controller.signal, output, deadlineMs: 60_000 },
    );
    await vi.waitFor(() => expect(seen).toContain('started'));
    // Its tree has grown to the shell, two sleeps, a subshell and its sleep.
    await vi.waitFor(() => {
      expect(installer).toBeDefined();
      const descendants = descendantsOf(installer!);
      expect(descendants.length).toBeGreaterThanOrEqual(4);
      pids = [installer!, ...descendants.map((p) => p.pid)];
    });
    controller.abort();
    expect(await run).toEqual({ kind: 'cancelled' });
    expect(pids.filter(running)).toEqual([]);
    expect(running(decoy.pid!)).toBe(true);
  });

  it('after a normal exit, a helper the installer left running in its group is reaped too', async () => {
    const output = new OutputTail();
    let straggler = 0;
    const result = await runInstaller(
      { command: 'sh', args: ['-c', 'sleep 300 >/dev/null 2>&1 & echo $!'], env: process.env },
      { spawn, signal: new AbortController().signal, output, deadlineMs: 60_000, captureStdout: true },
    );
    expect(result).toMatchObject({ kind: 'exited', code: 0 });
    straggler = Number((result as { stdout: string }).stdout.trim());
    expect(straggler).toBeGreaterThan(0);
    expect(running(straggler)).toBe(false);
  });

  it('a missing command is reported as spawn_failed, not thrown', async () => {
    const result = await runInstaller(
      { command: '/nonexistent/npm', args: [], env: process.env },
      { spawn, signal: new AbortController().signal, output: new OutputTail(), deadlineMs: 60_000 },
    );
    expect(result).toMatchObject({ kind: 'spawn_failed' });
  });

  it('an installer past its deadline on the clock is killed and reported as timed out, not before', async () => {
    const clock = new ManualClock();
    const seen: string[] = [];
    let settled: unknown;
    const run = runInstaller(
      { command: 'sh', args: ['-c', 'echo started; sleep 300'], env: process.env },
      { spawn, signal: new AbortController().signal, output: new OutputTail((l) => seen.push(l)), deadlineMs: 20 * 60_000, clock },
    ).then((result) => (settled = result));
    await vi.waitFor(() => expect(seen).toContain('started'));
    clock.advance(20 * 60_000 - 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBeUndefined();
    clock.advance(1);
    expect(await run).toEqual({ kind: 'timed_out' });
    expect(clock.pending).toBe(0);
  });
});
