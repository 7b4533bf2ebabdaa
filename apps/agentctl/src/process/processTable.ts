import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The host's process table, as process-tree reaping (reapTree.ts) needs it: /proc on Linux, `ps`
 * elsewhere on POSIX. Synchronous on purpose: /proc is in memory (nothing waits on a disk), and a
 * table read in one go is one consistent-enough snapshot.
 */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Process group; a detached child of ours leads its own (pgid === its pid). */
  pgid: number;
  /** Kernel state letter; Z (zombie) and X (dead) no longer run. */
  state: string;
  /** Start time, so a reused pid is never mistaken for one we tracked ('' when unknown). */
  start: string;
}

/** What a tree walk needs of an entry (the group is optional: without it, parent links only). */
export type ProcessLink = Pick<ProcessEntry, 'pid' | 'ppid' | 'state'> & { pgid?: number };

export function isRunning(entry: Pick<ProcessEntry, 'state'> | undefined): boolean {
  return entry !== undefined && entry.state !== 'Z' && entry.state !== 'X';
}

/**
 * Parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session ... starttime ...". The command name
 * may hold spaces and parentheses, so the fields are split after the last `)`.
 */
export function parseStat(text: string): ProcessEntry | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(pgid) || !state) return undefined;
  return { pid, ppid, pgid, state, start: fields[19] ?? '' };
}

function readStat(pid: number): ProcessEntry | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone
  }
}

/** Parses `ps -axo pid=,ppid=,pgid=,stat=,lstart=` (lstart, last, holds spaces). */
export function parsePsLine(line: string): ProcessEntry | undefined {
  const [pid, ppid, pgid, stat, ...start] = line.trim().split(/\s+/);
  const entry = { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), state: (stat ?? '').slice(0, 1), start: start.join(' ') };
  return Number.isInteger(entry.pid) && Number.isInteger(entry.ppid) && Number.isInteger(entry.pgid) && entry.state !== '' ? entry : undefined;
}

/** Every process this host shows us; empty when it shows none (no /proc and no usable `ps`). */
export function listProcesses(): ProcessEntry[] {
  if (process.platform === 'linux') {
    let names: string[];
    try {
      names = readdirSync('/proc');
    } catch {
      return [];
    }
    return names.filter((n) => /^\d+$/.test(n)).flatMap((n) => readStat(Number(n)) ?? []);
  }
  try {
    const text = execFileSync('ps', ['-axo', 'pid=,ppid=,pgid=,stat=,lstart='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return text.split('\n').flatMap((line) => parsePsLine(line) ?? []);
  } catch {
    return [];
  }
}

/** The current entries of some pids (absent: gone). One read per pid on Linux, one `ps` elsewhere. */
export function lookupProcesses(pids: Iterable<number>): Map<number, ProcessEntry> {
  const out = new Map<number, ProcessEntry>();
  if (process.platform === 'linux') {
    for (const pid of pids) {
      const entry = readStat(pid);
      if (entry) out.set(pid, entry);
    }
    return out;
  }
  const wanted = new Set(pids);
  for (const entry of listProcesses()) if (wanted.has(entry.pid)) out.set(entry.pid, entry);
  return out;
}

/**
 * Whether a process's initial environment carries `name=value`. Readable for our own uid on Linux;
 * false wherever it cannot be read (other users, hosts without /proc).
 */
export function environHas(pid: number, name: string, value: string): boolean {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return false;
  }
  const needle = Buffer.from(`${name}=${value}\0`);
  // Match at the start of the block or right after a NUL separator.
  if (environ.subarray(0, needle.length).equals(needle)) return true;
  return environ.includes(Buffer.concat([Buffer.from([0]), needle]));
}

/**
 * The running processes reached from `seeds` by parent links, breadth first, seeds excluded. Links
 * may point "forward" after pid wrap-around and may even form cycles; neither matters here.
 */
export function expandTree<E extends ProcessLink>(seeds: Iterable<number>, entries: readonly E[]): E[] {
  const children = new Map<number, E[]>();
  for (const e of entries) {
    if (!isRunning(e)) continue;
    const list = children.get(e.ppid);
    if (list) list.push(e);
    else children.set(e.ppid, [e]);
  }
  const seen = new Set(seeds);
  const queue = [...seen];
  const out: E[] = [];
  for (let i = 0; i < queue.length; i++) {
    for (const child of children.get(queue[i] as number) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/**
 * Running descendants of `rootPid`: by parent links, plus the members of its process group (which
 * stay in the group when re-parented after a parent's exit) and their descendants. Breadth first.
 */
export function descendantsOf(rootPid: number): ProcessEntry[];
export function descendantsOf<E extends ProcessLink>(rootPid: number, entries: readonly E[]): E[];
export function descendantsOf(rootPid: number, entries: readonly ProcessLink[] = listProcesses()): ProcessLink[] {
  const reached = expandTree([rootPid], entries);
  const known = new Set([rootPid, ...reached.map((e) => e.pid)]);
  const strays = entries.filter((e) => e.pgid === rootPid && !known.has(e.pid) && isRunning(e));
  return [...reached, ...strays, ...expandTree([...known, ...strays.map((e) => e.pid)], entries)];
}
