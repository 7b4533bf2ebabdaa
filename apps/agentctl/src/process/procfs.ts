import { readdir, readFile } from 'node:fs/promises';

/** One row of /proc: what reaping needs to know about a process. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  /** Single-letter state from /proc/<pid>/stat; `Z` is a zombie (already dead). */
  state: string;
}

/** Where /proc lives; injectable for tests. Absent (macOS) means "no /proc": callers fall back. */
export const PROC_ROOT = '/proc';

/** Parses /proc/<pid>/stat. The command name may contain spaces and parentheses: split after the last `)`. */
export function parseStat(text: string): ProcEntry | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const ppid = Number(fields[1]);
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || state === undefined) return undefined;
  return { pid, ppid, state };
}

export async function readProcEntry(pid: number, root = PROC_ROOT): Promise<ProcEntry | undefined> {
  try {
    return parseStat(await readFile(`${root}/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every process visible in /proc, or undefined when there is no /proc. Vanishing pids are skipped. */
export async function listProcesses(root = PROC_ROOT): Promise<ProcEntry[] | undefined> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return undefined;
  }
  const entries = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map((n) => readProcEntry(Number(n), root)));
  return entries.filter((e): e is ProcEntry => e !== undefined);
}

/** Whether a process's initial environment carries `name=value` (readable for our own uid). */
export async function environHas(pid: number, name: string, value: string, root = PROC_ROOT): Promise<boolean> {
  try {
    const environ = await readFile(`${root}/${pid}/environ`);
    const needle = Buffer.from(`${name}=${value}\0`);
    // Match at the start of the block or right after a NUL separator.
    if (environ.subarray(0, needle.length).equals(needle)) return true;
    return environ.includes(Buffer.concat([Buffer.from([0]), needle]));
  } catch {
    return false;
  }
}

/** Descendants of `rootPid` by parent links, breadth first (the root itself excluded). */
export function descendantsOf(rootPid: number, entries: readonly ProcEntry[]): number[] {
  const children = new Map<number, number[]>();
  for (const e of entries) {
    const list = children.get(e.ppid);
    if (list) list.push(e.pid);
    else children.set(e.ppid, [e.pid]);
  }
  const out: number[] = [];
  const queue = [rootPid];
  const seen = new Set<number>([rootPid]);
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}
