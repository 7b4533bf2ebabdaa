/**
 * The native watcher can lose events, and a lost folder creation leaves that folder's subtree
 * unwatched for good. @parcel/watcher 2.x loses them two ways: it skips inotify's queue overflow
 * (a burst beyond `max_queued_events`), and events its inotify thread records while its debounce
 * thread hands a batch to JS are cleared with that batch (measured here: `mkdir -p` of ten trees
 * under load lost two of the ten top folders about once in fifteen runs).
 *
 * The safety net: once a burst of events settles, the folders that had activity are listed again.
 * An entry changed since the burst began (ctime or mtime) that no event reported is reported now.
 * The same happens one level down, in subfolders whose entries changed. Bounded by
 * MAX_SCANNED_ENTRIES per burst. A deletion whose event was lost cannot be seen this way; the
 * page's Refresh covers it.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, type Clock, type Disposable } from '@kandev/kit';
import { MAX_SCANNED_ENTRIES, type ScannedEntry } from './newFolderScan.js';

/** Quiet time after the last event before the burst's folders are listed again. */
export const BURST_SETTLE_MS = 1_000;
/** How long before the first event of a burst a change may have happened (the native debounce, a busy loop). */
export const BURST_SLACK_MS = 2_000;
/**
 * How far a file's times may trail the wall clock: the kernel stamps them from a coarse clock (up
 * to a tick behind), so an entry made just after `Date.now()` can carry an earlier time.
 */
const FILE_TIME_LAG_MS = 100;
/** Folders remembered per burst; beyond that, the burst's listing covers the first ones only. */
const MAX_BURST_FOLDERS = 2_000;

interface Burst {
  /** Wall-clock time (file times are wall clock) from which a change counts as part of the burst. */
  since: number;
  folders: Set<string>;
  reported: Set<string>;
}

export class BurstReconciler implements Disposable {
  private burst: Burst | undefined;
  /**
   * Wall-clock time the watch began (0: not told). What changed before it is the state the watch
   * started from, never a lost event: without this bound, the first burst within the slack of the
   * watch's start reported every file written just before it as created, a second late.
   */
  private watchBegan = 0;
  private settle: Disposable | undefined;
  private running: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly root: string,
    private readonly clock: Clock,
    /** Entries changed in the burst that no event reported. */
    private readonly report: (missed: ScannedEntry[]) => void,
    private readonly slackMs = BURST_SLACK_MS,
  ) {}

  /** The wall-clock time the native watch began (taken before subscribing, so nothing between is lost). */
  began(at: number): void {
    this.watchBegan = at;
  }

  /** Paths the native watcher reported (workspace-relative). */
  note(paths: readonly string[]): void {
    if (this.disposed || paths.length === 0) return;
    const burst = (this.burst ??= { since: Math.max(this.watchBegan - FILE_TIME_LAG_MS, Date.now() - this.slackMs), folders: new Set(), reported: new Set() });
    for (const path of paths) {
      burst.reported.add(path);
      const slash = path.lastIndexOf('/');
      if (burst.folders.size < MAX_BURST_FOLDERS) burst.folders.add(slash < 0 ? '' : path.slice(0, slash));
    }
    this.settle?.dispose();
    this.settle = after(this.clock, BURST_SETTLE_MS, () => {
      this.settle = undefined;
      const settled = this.burst;
      this.burst = undefined;
      if (settled) this.running = this.running.then(() => this.reconcile(settled)).catch(() => undefined);
    });
  }

  /** Resolves once the listings of settled bursts are done (tests). */
  async reconciled(): Promise<void> {
    await this.running;
  }

  private async reconcile(burst: Burst): Promise<void> {
    const missed: ScannedEntry[] = [];
    let listed = 0;
    const pending = [...burst.folders];
    const visited = new Set<string>();
    while (pending.length > 0 && listed < MAX_SCANNED_ENTRIES && !this.disposed) {
      const folder = pending.shift() as string;
      if (visited.has(folder)) continue;
      visited.add(folder);
      let entries: Dirent[];
      try {
        entries = await readdir(join(this.root, folder), { withFileTypes: true });
      } catch {
        continue; // gone since
      }
      for (const entry of entries) {
        if (++listed > MAX_SCANNED_ENTRIES) break;
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        const isFolder = entry.isDirectory();
        // A reported file needs no look; a folder may hold lost changes whatever was reported of it.
        if (!isFolder && burst.reported.has(path)) continue;
        const changedInBurst = await this.changedSince(path, burst.since);
        if (!changedInBurst) continue;
        // A folder whose entries changed may hold lost changes too: look inside it as well.
        if (isFolder) pending.push(path);
        // A folder's own 'changed' means nothing to anyone; only a new folder is news.
        if (!burst.reported.has(path) && !(isFolder && changedInBurst === 'changed')) missed.push({ path, kind: changedInBurst, folder: isFolder });
      }
    }
    if (missed.length > 0 && !this.disposed) this.report(missed);
  }

  /** How an entry changed since `since`: born then (where the file system keeps birth times), or changed. */
  private async changedSince(path: string, since: number): Promise<'created' | 'changed' | undefined> {
    try {
      const stat = await lstat(join(this.root, path));
      if (Math.max(stat.mtimeMs, stat.ctimeMs) < since) return undefined;
      // Without birth times (0), a changed folder is taken as created: listing it twice costs little,
      // while a new folder taken as old would stay unwatched.
      if (stat.birthtimeMs >= since || (stat.birthtimeMs === 0 && stat.isDirectory())) return 'created';
      return 'changed';
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.settle?.dispose();
    this.settle = undefined;
    this.burst = undefined;
  }
}
