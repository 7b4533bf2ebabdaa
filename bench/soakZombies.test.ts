import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { children, isZombie, lastingZombies } from './soak/procs.js';

/** A zombie whose parent never waits: `sh` starts a short child, then becomes a `sleep` that never reaps it. */
async function unreapedZombie(): Promise<{ parent: number; zombie: number }> {
  const parent = spawn('sh', ['-c', 'sleep 0 & exec sleep 30'], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [zombie] = children(parent.pid as number).filter(isZombie);
    // Only once the shell has become the sleep: before that, the shell may still reap its child.
    const becameSleep = readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8').startsWith('sleep');
    if (zombie && becameSleep) return { parent: parent.pid as number, zombie };
    if (Date.now() > deadline) throw new Error('no zombie appeared');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) process.kill(pid, 'SIGKILL');
});

describe('soak checkpoints: zombies', () => {
  it('a zombie still unreaped after the grace is reported, after the grace; other processes are not', async () => {
    const { parent, zombie } = await unreapedZombie();
    started.push(parent);
    let graced = 0;
    const found = await lastingZombies([parent, zombie, process.pid], async () => {
      graced++;
    });
    expect(graced).toBe(1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${zombie} .*<zombie>$`));
  });

  it('no zombie: no grace is waited, nothing is reported', async () => {
    let graced = 0;
    expect(await lastingZombies([process.pid], async () => void graced++)).toEqual([]);
    expect(graced).toBe(0);
  });

  it('a zombie gone during the grace (reaped by the process that inherited it) is not reported', async () => {
    const { parent, zombie } = await unreapedZombie();
    started.push(parent);
    // The grace ends the parent, so the zombie's new parent (init) reaps it: reaped within the grace,
    // as a server's parent reaps it moments after it exits, it is not counted.
    const found = await lastingZombies([zombie], async () => {
      process.kill(parent, 'SIGKILL');
      started.splice(started.indexOf(parent), 1);
      const deadline = Date.now() + 15_000;
      while (isZombie(zombie) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    });
    expect(found).toEqual([]);
  });
});
