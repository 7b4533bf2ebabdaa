/** What /proc says about the processes of a soak run (Linux only, like the bench). */
import { readFileSync, readdirSync } from 'node:fs';

const pids = (): number[] =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);

interface Stat {
  state: string;
  parent: number;
  name: string;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const [state, parent] = text.slice(close + 2).split(' ');
    return { state: state as string, parent: Number(parent), name: text.slice(text.indexOf('(') + 1, close) };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

export function children(pid: number): number[] {
  return pids().filter((p) => stat(p)?.parent === pid);
}

/** Every descendant of `pid`, parents before their children. */
export function tree(pid: number): number[] {
  return children(pid).flatMap((c) => [c, ...tree(c)]);
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .replace(/[\0\s]+/g, ' ')
      .trim()
      .slice(0, 120);
  } catch {
    return '';
  }
}

export const isZombie = (pid: number): boolean => stat(pid)?.state === 'Z';

/** How long a zombie's parent gets to reap it before the zombie counts as left behind. */
export const ZOMBIE_GRACE_MS = 2_000;

/**
 * The zombies among `pids` that are still there after `grace`: a process caught between its exit
 * and its parent's wait (a server that just crashed or was released while the checkpoint read
 * /proc) is reaped within milliseconds, while one whose parent never waits stays. The same pid
 * with the same start time, so a pid reused meanwhile does not count.
 */
export async function lastingZombies(
  pids: readonly number[],
  grace: () => Promise<void> = () => new Promise((r) => setTimeout(r, ZOMBIE_GRACE_MS)),
): Promise<string[]> {
  const seen = pids.filter(isZombie).map((pid) => ({ pid, started: startTime(pid) }));
  if (seen.length === 0) return [];
  await grace();
  return seen.filter(({ pid, started }) => isZombie(pid) && startTime(pid) === started).map(({ pid }) => describeProcess(pid));
}

/** Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot. */
function startTime(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** "pid (name) state", for a zombie whose command line is gone. */
export const describeProcess = (pid: number): string => {
  const s = stat(pid);
  return s ? `${pid} ${commandOf(pid) || `(${s.name})`}${s.state === 'Z' ? ' <zombie>' : ''}` : `${pid} (gone)`;
};

export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

/** One variable of a process's environment (as it was started). */
export function envOf(pid: number, name: string): string | undefined {
  try {
    const entry = readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .find((e) => e.startsWith(`${name}=`));
    return entry?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

/** Every process (zombies included) whose environment carries `marker`, wherever it was reparented. */
export function processesMarked(marker: string): number[] {
  return pids().filter((p) => {
    if (p === process.pid) return false;
    try {
      return readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(marker);
    } catch {
      return false;
    }
  });
}

export function hasMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(marker);
  } catch {
    return false;
  }
}
