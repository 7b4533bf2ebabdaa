import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Ends an installer's whole process tree and proves it is gone. npm and go start children of their
 * own (go: compile, link; npm: git, node-gyp, scripts); killing only the direct child would leave
 * them running and writing into a staging directory we are about to delete (S56).
 *
 * Installers are spawned detached, i.e. as leader of their own process group, so the group is one
 * signal. A descendant can still leave the group (setsid), so we also follow parent links: freeze
 * what we find with SIGSTOP (a stopped process cannot fork), repeat until no new descendant shows
 * up, then SIGKILL everything found and wait until none of it runs.
 *
 * Self-contained on purpose: process/ (the language-server reaper) is being written in parallel;
 * the two should become one module.
 */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Kernel state letter; Z (zombie) and X (dead) no longer run. */
  state: string;
  /** Start time, so a reused pid is never mistaken for one we tracked ('' when unknown). */
  start: string;
}

function readProcStat(pid: number): ProcessEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0] ?? '', ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '' };
}

/** Every process this host shows us: /proc on Linux, ps elsewhere on POSIX. */
export function listProcesses(): ProcessEntry[] {
  if (process.platform === 'linux') {
    const out: ProcessEntry[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const entry = readProcStat(Number(name));
      if (entry) out.push(entry);
    }
    return out;
  }
  const text = execFileSync('ps', ['-axo', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length >= 4)
    .map(([pid, ppid, pgid, stat]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), state: (stat ?? '').slice(0, 1), start: '' }));
}

function isRunning(entry: ProcessEntry | undefined): boolean {
  return entry !== undefined && entry.state !== 'Z' && entry.state !== 'X';
}

/** Running descendants of `rootPid` (by parent links) plus members of its process group. */
export function descendantsOf(rootPid: number, processes: readonly ProcessEntry[] = listProcesses()): ProcessEntry[] {
  const tree = new Set([rootPid]);
  const found = new Map<number, ProcessEntry>();
  // Parent links may point "forward" after pid wrap-around, so iterate to a fixed point.
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of processes) {
      if (tree.has(p.pid) || !isRunning(p)) continue;
      if (tree.has(p.ppid) || p.pgid === rootPid) {
        tree.add(p.pid);
        found.set(p.pid, p);
        changed = true;
      }
    }
  }
  return [...found.values()];
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: already gone, which is the goal.
  }
}

function stillOurs(tracked: ProcessEntry): boolean {
  const now = process.platform === 'linux' ? readProcStat(tracked.pid) : listProcesses().find((p) => p.pid === tracked.pid);
  return isRunning(now) && (tracked.start === '' || now?.start === tracked.start);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kills the tree rooted at `rootPid` (a detached child of ours) and resolves with the pids still
 * running afterwards: empty unless something resisted SIGKILL for about two seconds.
 */
export async function killProcessTree(rootPid: number): Promise<number[]> {
  if (process.platform === 'win32') {
    // No process groups; taskkill walks the tree itself.
    spawnSync('taskkill', ['/pid', String(rootPid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
    return [];
  }
  const tracked = new Map<number, ProcessEntry>();
  // Track the root itself only while it runs: once exited and reaped its pid may belong to a stranger.
  const root = process.platform === 'linux' ? readProcStat(rootPid) : listProcesses().find((p) => p.pid === rootPid);
  if (isRunning(root)) tracked.set(rootPid, root as ProcessEntry);
  signal(-rootPid, 'SIGSTOP');
  for (let round = 0; round < 100; round++) {
    const fresh = descendantsOf(rootPid, listProcesses()).filter((p) => !tracked.has(p.pid));
    // Escapees from the group are found through their parent, which must be tracked too.
    for (const p of fresh) {
      tracked.set(p.pid, p);
      signal(p.pid, 'SIGSTOP');
    }
    if (fresh.length === 0) break;
  }
  signal(-rootPid, 'SIGKILL');
  for (const entry of tracked.values()) if (stillOurs(entry)) signal(entry.pid, 'SIGKILL');
  for (let attempt = 0; attempt < 100; attempt++) {
    const survivors = [...tracked.values()].filter(stillOurs);
    if (survivors.length === 0) return [];
    if (attempt === 99) return survivors.map((p) => p.pid);
    await sleep(20);
  }
  return [];
}
