import { readFileSync } from 'node:fs';
import { type Clock, after, systemClock } from '@kandev/kit';

/**
 * Who a pid is, beyond its number: the boot id plus the kernel's start time of the process. Two
 * processes can share a pid over time, never this pair, so a stored identity lets a later backend
 * signal the agentctl it recorded and nothing else. Linux only (/proc); elsewhere undefined, and
 * orphans are then left to agentctl's own parent-death handling.
 */
export function processIdentity(pid: number): string | undefined {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name; starttime is field 22 overall, 20th after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const startTime = fields[19];
    if (!startTime || state === 'Z' || state === 'X') return undefined;
    return `${bootId}:${startTime}`;
  } catch {
    return undefined;
  }
}

/**
 * Stops an agentctl that a crashed backend left running: SIGTERM to its process group (it leads
 * one, see agentctlProcess.ts) so it can reap its servers, then SIGKILL to the group if the very
 * same process is still there after `graceMs`. Returns false when the pid is someone else now.
 */
export function reapOrphanedHost(pid: number, identity: string, graceMs: number, clock: Clock = systemClock): boolean {
  if (processIdentity(pid) !== identity) return false;
  signalGroup(pid, 'SIGTERM');
  // Not kept: the escalation never holds a stopping backend open (clock timers do not).
  after(clock, graceMs, () => {
    if (processIdentity(pid) === identity) signalGroup(pid, 'SIGKILL');
  });
  return true;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Resolves true once the process `pid` with `identity` is gone, false if it still runs after
 * `timeoutMs`. Polled: it is not this process's child, so no exit event reaches us. A plain timer
 * on purpose, like the marker sweep's: a stop must hold the process open until the end is proven.
 */
export async function waitUntilGone(pid: number, identity: string, timeoutMs: number, pollMs = 25): Promise<boolean> {
  for (let waited = 0; processIdentity(pid) === identity; waited += pollMs) {
    if (waited >= timeoutMs) return false;
    await new Promise<void>((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}

/** SIGTERM or SIGKILL to the process group `pid` leads, only while `pid` is still `identity`. */
export function signalHostGroup(pid: number, identity: string, signal: NodeJS.Signals): void {
  if (processIdentity(pid) === identity) signalGroup(pid, signal);
}
