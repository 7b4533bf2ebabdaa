import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { processIdentity, reapOrphanedHost } from './processIdentity.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A detached group leader that ignores SIGTERM, like a wedged agentctl. */
function stubbornGroupLeader(): number {
  const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  child.unref();
  started.push(child.pid as number);
  return child.pid as number;
}

async function eventually(check: () => boolean): Promise<boolean> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  return check();
}

describe('processIdentity', () => {
  it('is stable for one process and absent for a pid that does not exist', () => {
    expect(processIdentity(process.pid)).toBe(processIdentity(process.pid));
    expect(processIdentity(process.pid)).toMatch(/^[0-9a-f-]+:\d+$/);
    expect(processIdentity(2 ** 22 + 1)).toBeUndefined();
  });
});

describe('reapOrphanedHost', () => {
  it('leaves a process alone when its identity does not match (a reused pid)', () => {
    const pid = stubbornGroupLeader();
    expect(reapOrphanedHost(pid, 'another-boot:1', 10)).toBe(false);
    expect(processIdentity(pid)).toBeDefined();
  });

  it('ends the recorded process, escalating to SIGKILL when it ignores SIGTERM', async () => {
    const pid = stubbornGroupLeader();
    await eventually(() => processIdentity(pid) !== undefined);
    const identity = processIdentity(pid) as string;
    expect(reapOrphanedHost(pid, identity, 100)).toBe(true);
    expect(await eventually(() => processIdentity(pid) === undefined)).toBe(true);
  });
});
