import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

/**
 * Every process this agentctl starts inherits this variable (agentctl puts it in its own
 * environment before any stream exists, and childEnv passes everything but AGENTCTL_* on).
 */
export const INSTANCE_MARKER_VARIABLE = 'KANDEV_AGENTCTL_INSTANCE';
const WATCHED_VARIABLE = 'KANDEV_WATCHDOG_INSTANCE';

/**
 * The watchdog: a tiny detached Node process holding the read end of a pipe from agentctl. When
 * agentctl ends, however it ends (SIGKILL and OOM included, when nobody else is left to clean up:
 * its backend may be dead too), the pipe closes; the watchdog then freezes (SIGSTOP) and kills
 * (SIGKILL) every process carrying this instance's marker in /proc/<pid>/environ, waits until they are gone, and exits. After
 * an orderly exit (agentctl reaped everything) it finds nothing. It does not carry the marker
 * itself. Plain CommonJS so it needs no bundle of its own.
 */
const WATCHDOG_SOURCE = String.raw`
const fs = require('node:fs');
const needle = '\0' + process.env.KANDEV_AGENTCTL_INSTANCE_MARK + '\0';
function marked() {
  const out = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (('\0' + fs.readFileSync('/proc/' + name + '/environ', 'latin1')).includes(needle)) out.push(Number(name));
    } catch {}
  }
  return out;
}
function signal(pid, sig) { try { process.kill(pid, sig); } catch {} }
let swept = false;
function sweep() {
  if (swept) return;
  swept = true;
  const seen = new Set();
  for (let round = 0; round < 50; round++) {
    const fresh = marked().filter((pid) => !seen.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) { seen.add(pid); signal(pid, 'SIGSTOP'); }
  }
  for (const pid of seen) signal(pid, 'SIGKILL');
  // A killed process takes a moment to be torn down on a busy machine: the watchdog's own exit
  // means "nothing marked runs any more", so it waits for that (a few seconds at most).
  const deadline = Date.now() + 5000;
  const finish = () => {
    if ([...seen].every(ended) || Date.now() > deadline) process.exit(0);
    setTimeout(finish, 20);
  };
  finish();
}
function ended(pid) {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'latin1');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}
process.on('SIGTERM', () => {});
process.on('SIGHUP', () => {});
process.stdin.on('data', () => {});
process.stdin.on('end', sweep);
process.stdin.on('error', sweep);
process.stdin.resume();
`;

/**
 * Marks this agentctl's future children with a fresh instance marker and starts its watchdog
 * (Linux only: it reads /proc). Call once, before any stream exists.
 */
export function startWatchdog(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const instance = randomUUID();
  const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE], {
    // Only what it needs: never the marker it hunts (it would kill itself), never AGENTCTL_*.
    env: { KANDEV_AGENTCTL_INSTANCE_MARK: `${INSTANCE_MARKER_VARIABLE}=${instance}`, [WATCHED_VARIABLE]: instance },
    stdio: ['pipe', 'ignore', 'ignore'],
    // Its own process group: a kill aimed at agentctl's group must not take the watchdog first.
    detached: true,
  });
  child.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  // Neither the child nor the pipe may keep agentctl alive; the pipe closes when agentctl exits.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  env[INSTANCE_MARKER_VARIABLE] = instance;
  return instance;
}
