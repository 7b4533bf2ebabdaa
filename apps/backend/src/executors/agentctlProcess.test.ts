import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@kandev/kit';
import { formatListeningLine } from '@kandev/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnAgentctl } from './agentctlProcess.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Alive = has a /proc entry that is not a zombie (a container's PID 1 may never reap orphans). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

/** A stand-in agentctl: `node -e SCRIPT`, so these tests need no build and no real agentctl. */
function fakeAgentctl(script: string, startTimeoutMs = 10_000, clock?: ManualClock) {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-agentctl-'));
  dirs.push(dir);
  const env = { ...process.env, GRANDCHILD_PID_FILE: join(dir, 'grandchild.pid') } as Record<string, string>;
  return {
    dir,
    env,
    spawned: spawnAgentctl({ argv: ['node', '-e', script], env, cwd: dir, logFile: join(dir, 'agentctl.log'), startTimeoutMs, ...(clock ? { clock } : {}) }),
  };
}

/** Written last by each script: the parent may signal the instant it reads this line. */
const LISTEN = `process.stdout.write(${JSON.stringify(formatListeningLine(4321))});`;

describe('spawnAgentctl', () => {
  it('waits for the listening line, and a SIGTERM stop reaps the process', async () => {
    const { spawned } = fakeAgentctl(`process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000); ${LISTEN} console.log('chatter');`);
    const agentctl = await spawned;
    if (!agentctl.ok) throw new Error(agentctl.error);
    expect(agentctl.value.port).toBe(4321);
    expect(isAlive(agentctl.value.pid)).toBe(true);
    expect(await agentctl.value.stop(5_000)).toEqual({ escalated: false });
    expect(await agentctl.value.exited).toEqual({ code: 0, signal: null });
    expect(isAlive(agentctl.value.pid)).toBe(false);
  });

  it('kills the whole process group when agentctl ignores SIGTERM past the grace period', async () => {
    const { spawned, env } = fakeAgentctl(`
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('node:fs').writeFileSync(process.env.GRANDCHILD_PID_FILE, String(child.pid));
      process.on('SIGTERM', () => {});
      ${LISTEN}
      setInterval(() => {}, 1000);`);
    const agentctl = await spawned;
    if (!agentctl.ok) throw new Error(agentctl.error);
    await waitFor(() => existsSync(env.GRANDCHILD_PID_FILE as string));
    const grandchild = Number(readFileSync(env.GRANDCHILD_PID_FILE as string, 'utf8'));
    expect(isAlive(grandchild)).toBe(true);
    expect(await agentctl.value.stop(200)).toEqual({ escalated: true });
    expect(isAlive(agentctl.value.pid)).toBe(false);
    await waitFor(() => !isAlive(grandchild));
    expect(isAlive(grandchild)).toBe(false);
  });

  it('escalates to SIGKILL exactly when the grace period ends on the clock, not before', async () => {
    const clock = new ManualClock();
    const { spawned, dir } = fakeAgentctl(
      `
      process.on('SIGTERM', () => require('node:fs').writeFileSync('sigterm', ''));
      ${LISTEN}
      setInterval(() => {}, 1000);`,
      10_000,
      clock,
    );
    const agentctl = await spawned;
    if (!agentctl.ok) throw new Error(agentctl.error);
    let settled: { escalated: boolean } | undefined;
    const stopped = agentctl.value.stop(10_000).then((outcome) => (settled = outcome));
    // SIGTERM was received and ignored: still running, and the stop waits for its deadline.
    await waitFor(() => existsSync(join(dir, 'sigterm')));
    clock.advance(9_999);
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBeUndefined();
    expect(isAlive(agentctl.value.pid)).toBe(true);
    clock.advance(1);
    expect(await stopped).toEqual({ escalated: true });
    expect(await agentctl.value.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(clock.pending).toBe(0);
  });

  it('reports what agentctl said when it dies before listening', async () => {
    const { spawned } = fakeAgentctl(`console.error('AGENTCTL_WORKSPACE is not a folder'); process.exit(3);`);
    const agentctl = await spawned;
    expect(agentctl.ok).toBe(false);
    expect(!agentctl.ok && agentctl.error).toMatch(/exited before listening \(code 3\).*AGENTCTL_WORKSPACE is not a folder/);
  });

  it('gives up on an agentctl that never listens, and leaves no process behind', async () => {
    const { spawned, dir } = fakeAgentctl(`require('node:fs').writeFileSync('pid', String(process.pid)); setInterval(() => {}, 1000);`, 1_000);
    const agentctl = await spawned;
    expect(!agentctl.ok && agentctl.error).toMatch(/did not report listening within 1000 ms/);
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    await waitFor(() => !isAlive(pid));
    expect(isAlive(pid)).toBe(false);
  });

  it('fails cleanly when the command does not exist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kandev-agentctl-'));
    dirs.push(dir);
    const agentctl = await spawnAgentctl({ argv: [join(dir, 'missing-binary')], env: {}, cwd: dir, logFile: join(dir, 'log'), startTimeoutMs: 5_000 });
    expect(!agentctl.ok && agentctl.error).toMatch(/cannot start agentctl: .*ENOENT/);
  });
});
