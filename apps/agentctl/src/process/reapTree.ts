import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { childEnv, type TaskEnv } from '../env/taskEnv.js';
import { environHas, expandTree, isRunning, listProcesses, lookupProcesses, type ProcessEntry } from './processTable.js';
import { reapWindowsTree } from './reapWindows.js';
import type { TreeRoot } from './treeRoot.js';

/**
 * Every process agentctl starts (language servers, installers) and everything those start inherit
 * this variable. Reaping finds by it, in /proc/<pid>/environ, the descendants that left the process
 * group and lost their parent link (setsid, then the parent exits).
 */
export const TREE_MARKER_VARIABLE = 'KANDEV_LSP_PROCESS_TREE';

export function newTreeMarker(): string {
  return randomUUID();
}

/** The environment of a child that starts a tree: childEnv (no AGENTCTL_*) plus the tree marker. */
export function markedEnv(env: TaskEnv, marker: string): Record<string, string> {
  return childEnv(env, { [TREE_MARKER_VARIABLE]: marker });
}

/** The root of a tree: a detached child of agentctl, so the leader of its own process group. */
export type { TreeRoot };

/** A TreeRoot for a started ChildProcess (one with a pid). */
export function childProcessRoot(child: ChildProcess, marker?: string): TreeRoot {
  if (child.pid === undefined) throw new Error('the process never started, so it has no tree');
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const exited = hasExited() ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { pid: child.pid, marker, hasExited, exited };
}

export interface ReapOptions {
  /** SIGTERM, then this long for the tree to exit on its own, then SIGKILL. 0: SIGKILL at once. */
  graceMs: number;
  pollMs?: number;
}

export interface ReapReport {
  /** Processes of the tree besides the root. */
  descendants: number;
  /** Processes that needed SIGKILL (the root included). */
  killed: number;
  /** Processes still running at the end: empty unless something resisted SIGKILL for KILL_WAIT_MS. */
  survivors: number[];
}

/** How long SIGKILLed processes get to disappear before they are reported as survivors. */
const KILL_WAIT_MS = 2_000;
/** Re-collect and re-signal every this many polls while something survives SIGKILL. */
const KILL_ROUND_POLLS = 10;
/** A tree that keeps growing while being frozen is bounded by this many collection rounds. */
const FREEZE_ROUNDS = 100;

/**
 * The poll's pause, deliberately not a kit Clock timer: those never keep the process alive, and a
 * reap running during shutdown must hold the process open until the tree is proven gone.
 */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone (ESRCH) or not ours (EPERM): nothing more to do for this pid.
  }
}

/** One reap's bookkeeping: which processes belong to the tree, and which of them still run. */
class Tree {
  /** Every process found in the tree, as first seen (its start time guards against pid reuse). */
  readonly tracked = new Map<number, ProcessEntry>();

  constructor(private readonly root: TreeRoot) {}

  rootOurs(): boolean {
    return !this.root.hasExited();
  }

  /** Tracked processes that still run and are still the processes we tracked (same start time). */
  live(): ProcessEntry[] {
    const now = lookupProcesses(this.tracked.keys());
    return [...this.tracked.values()].flatMap((t) => {
      const entry = now.get(t.pid);
      return entry && isRunning(entry) && (t.start === '' || entry.start === t.start) ? [entry] : [];
    });
  }

  gone(): boolean {
    return !this.rootOurs() && this.live().length === 0;
  }

  /**
   * The tree as it is now: the root's descendants by parent links while the root is ours, members of
   * its process group, every process carrying its marker, and their descendants. Never agentctl.
   */
  private collect(): ProcessEntry[] {
    const entries = listProcesses().filter((e) => isRunning(e) && e.pid !== process.pid);
    // After the root's exit its pid number, and so its group number, may have been reused: a
    // running process with that pid is a stranger, and so is its group.
    const groupOurs = this.rootOurs() || !entries.some((e) => e.pid === this.root.pid);
    const marker = this.root.marker;
    const seeds = entries.filter((e) => (groupOurs && e.pgid === this.root.pid) || (marker !== undefined && environHas(e.pid, TREE_MARKER_VARIABLE, marker)));
    const from = seeds.map((e) => e.pid);
    if (this.rootOurs()) from.push(this.root.pid);
    return [...seeds, ...expandTree(from, entries)].filter((e) => e.pid !== this.root.pid);
  }

  /**
   * Signals the group (while it exists), the root (while ours) and every live tracked process;
   * returns the pids that were running. A group number stays allocated while any member lives, so
   * signalling it never reaches a stranger.
   */
  signalAll(sig: NodeJS.Signals): number[] {
    const live = this.live();
    const rootOurs = this.rootOurs();
    if (rootOurs || live.some((e) => e.pgid === this.root.pid)) signal(-this.root.pid, sig);
    if (rootOurs) signal(this.root.pid, sig);
    for (const e of live) signal(e.pid, sig);
    return [...(rootOurs ? [this.root.pid] : []), ...live.map((e) => e.pid)];
  }

  /**
   * Stops the whole tree: the group in one signal, then every process found, re-collecting until no
   * new one shows up. A stopped process cannot fork, so a forking tree cannot outrun this.
   */
  freeze(): void {
    this.signalAll('SIGSTOP');
    for (let round = 0; round < FREEZE_ROUNDS; round++) {
      const fresh = this.collect().filter((e) => this.tracked.get(e.pid)?.start !== e.start);
      for (const e of fresh) {
        this.tracked.set(e.pid, e);
        signal(e.pid, 'SIGSTOP');
      }
      if (fresh.length === 0) return;
    }
  }
}

/**
 * Ends a process tree and proves it gone: the root (a detached child of agentctl), its process group,
 * descendants by parent links, and escapees carrying the tree marker. Freezes the tree first (SIGSTOP);
 * then, with a grace period, SIGTERM + SIGCONT and a wait; then SIGKILL for whatever is left
 * (re-collected, so what started during the grace period goes too), and waits until none of it runs.
 * Language servers get a grace period; installers, whose work is discarded anyway, do not.
 */
export async function reapTree(root: TreeRoot, options: ReapOptions): Promise<ReapReport> {
  if (process.platform === 'win32') {
    await reapWindowsTree(root);
    return { descendants: 0, killed: 0, survivors: [] };
  }
  const pollMs = options.pollMs ?? 20;
  const tree = new Tree(root);
  tree.freeze();
  if (options.graceMs > 0) {
    tree.signalAll('SIGTERM');
    tree.signalAll('SIGCONT');
    for (let waited = 0; waited < options.graceMs && !tree.gone(); waited += pollMs) await sleep(pollMs);
    tree.freeze();
  }
  const killed = new Set<number>();
  for (let poll = 0; !tree.gone() && poll * pollMs < KILL_WAIT_MS; poll++) {
    if (poll % KILL_ROUND_POLLS === 0) {
      if (poll > 0) tree.freeze(); // whatever raced the previous round
      for (const pid of tree.signalAll('SIGKILL')) killed.add(pid);
    }
    await sleep(pollMs);
  }
  const survivors = tree.live().map((e) => e.pid);
  if (tree.rootOurs()) survivors.unshift(root.pid);
  else await root.exited;
  return { descendants: tree.tracked.size, killed: killed.size, survivors };
}
