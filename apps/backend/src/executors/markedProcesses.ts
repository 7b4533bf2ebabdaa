import { readdirSync, readFileSync } from 'node:fs';
import { TASK_HOST_MARKER_VARIABLE } from './taskHostMarker.js';

/**
 * Finds and kills processes by the task-host marker in their initial environment (taskHostMarker.ts).
 * This is the backend's backstop: agentctl reaps its own trees on every orderly path; this catches
 * what is left when agentctl itself was killed (SIGKILL, OOM) or a previous backend died with it.
 * Linux only (/proc); elsewhere it finds nothing and agentctl's own reaping is all there is.
 */

/** How long SIGKILLed processes get to disappear before they are reported as survivors. */
const KILL_WAIT_MS = 3_000;
const POLL_MS = 25;
/** A tree that keeps forking while it is being frozen is bounded by this many rounds. */
const FREEZE_ROUNDS = 50;

export interface MarkedKillReport {
  /** Processes found carrying the marker. */
  found: number;
  /** Still running after SIGKILL and the wait (only something unkillable, such as a D-state process). */
  survivors: number[];
}

/**
 * The poll's pause, deliberately not a kit Clock timer: those never keep the process alive, and a
 * reap running during shutdown must hold the process open until the tree is proven gone.
 */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function markerOf(pid: number): string | undefined {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return undefined; // gone, or not ours to read
  }
  const prefix = `${TASK_HOST_MARKER_VARIABLE}=`;
  for (const entry of environ.split('\0')) if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  return undefined;
}

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Running processes whose marker matches, never this process. */
export function findMarked(match: (value: string) => boolean): number[] {
  if (process.platform !== 'linux') return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const value = markerOf(pid);
    if (value !== undefined && match(value) && isRunning(pid)) out.push(pid);
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH (gone) or EPERM (not ours): nothing more to do for it.
  }
}

/**
 * SIGSTOPs every matching process until no new one appears (a stopped process cannot fork, so a
 * forking tree cannot outrun this), then SIGKILLs them all and waits until none runs. No grace:
 * whatever owned these processes is already gone, and nobody will read their work.
 */
export async function killMarked(match: (value: string) => boolean): Promise<MarkedKillReport> {
  const seen = new Set<number>();
  for (let round = 0; round < FREEZE_ROUNDS; round++) {
    const fresh = findMarked(match).filter((pid) => !seen.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      seen.add(pid);
      signal(pid, 'SIGSTOP');
    }
  }
  if (seen.size === 0) return { found: 0, survivors: [] };
  for (const pid of seen) signal(pid, 'SIGKILL');
  let live = [...seen].filter(isRunning);
  for (let waited = 0; live.length > 0 && waited < KILL_WAIT_MS; waited += POLL_MS) {
    await sleep(POLL_MS);
    // Anything that slipped in between the last freeze round and the kill goes too.
    for (const pid of findMarked(match).filter((p) => !seen.has(p))) {
      seen.add(pid);
      signal(pid, 'SIGKILL');
    }
    live = [...seen].filter(isRunning);
  }
  return { found: seen.size, survivors: live };
}
