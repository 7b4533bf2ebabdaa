/**
 * One watcher per workspace (agentctl has one workspace): the OS's notifications through the
 * native watcher, or, when the OS refuses (the inotify watch limit), polling of what the pages have
 * in view. Reports workspace-relative changes as they arrive (consumers coalesce them), tells the
 * git state when a repository's HEAD, index or refs moved, and never reports `.git` internals.
 * A watcher failure degrades to polling; it never throws out of here.
 */
import { join, sep } from 'node:path';
import { after, Emitter, type Clock, type Disposable } from '@kandev/kit';
import type { WatchDegradedReason, WatchMode } from '@kandev/protocol';
import { errorFields, type Logger } from '../base/log.js';
import { isStagingPath } from '../files/stagingName.js';
import type { ChangeKind } from './coalescer.js';
import { classifyGitPath, UNWATCHED_GIT_FOLDERS } from './gitPaths.js';
import type { NativeEvent, NativeSubscription, NativeWatcher } from './nativeWatcher.js';
import { BurstReconciler } from './burstReconcile.js';
import { scanCreatedFolders, type ScannedEntry } from './newFolderScan.js';
import { MAX_PATCH_WATCHES, PatchWatches } from './patchWatches.js';
import { PollingWatcher, type PathChange } from './pollingWatcher.js';

export type { PathChange };

export interface WatchState {
  mode: WatchMode;
  reason?: WatchDegradedReason;
}

export interface WorkspaceWatcherOptions {
  /** The workspace's real path (symlinks resolved): native paths are reported below it. */
  root: string;
  /** Repository roots relative to the workspace (`''` for one at the root). */
  repoRoots: readonly string[];
  native: NativeWatcher;
  clock: Clock;
  /** How often the polling fallback looks at the paths in view. */
  pollIntervalMs: number;
  logger: Logger;
}

/** When a created folder is listed a second time (its OS watch exists by then). */
export const NEW_FOLDER_RESCAN_MS = 500;

/** Creations remembered to tell natively watched folders from missed ones (then forgotten at once). */
const MAX_REMEMBERED_CREATIONS = 100_000;

const KIND: Record<NativeEvent['type'], ChangeKind> = { create: 'created', update: 'changed', delete: 'deleted' };

/** inotify's "no space left on device": the per-user watch limit, not the disk. */
export function isWatchLimitError(error: unknown): boolean {
  const text = `${(error as { code?: unknown } | undefined)?.code ?? ''} ${(error as { message?: unknown } | undefined)?.message ?? error}`;
  return /ENOSPC|No space left on device|max_user_watches/i.test(text);
}

export class WorkspaceWatcher implements Disposable {
  private readonly changes = new Emitter<PathChange[]>();
  private readonly gitTouched = new Emitter<void>();
  private readonly modes = new Emitter<WatchState>();
  private subscription: NativeSubscription | undefined;
  private poller: PollingWatcher | undefined;
  private inView: { files: string[]; folders: string[] } = { files: [], folders: [] };
  private current: WatchState = { mode: 'native' };
  private disposed = false;
  /** New-folder listings run one after another, so their reports keep the order of the events. */
  private scans: Promise<void> = Promise.resolve();
  private readonly rescans = new Set<Disposable>();
  /** Paths reported created lately (by the OS, or a listing): a folder the OS reported has a native watch. */
  private reportedCreations = new Set<string>();
  private readonly patches: PatchWatches;
  private readonly reconciler: BurstReconciler;
  private readonly prefix: string;

  readonly onChanges = this.changes.event;
  readonly onGitTouched = this.gitTouched.event;
  readonly onMode = this.modes.event;

  constructor(private readonly options: WorkspaceWatcherOptions) {
    this.prefix = options.root.endsWith(sep) ? options.root : options.root + sep;
    this.patches = new PatchWatches(
      options.root,
      MAX_PATCH_WATCHES,
      (changes) => {
        if (!this.disposed) this.changes.fire(changes);
      },
      (rel) => this.scanNewFolders([rel]),
    );
    this.reconciler = new BurstReconciler(options.root, options.clock, (missed) => this.reportMissed(missed));
  }

  private noteReported(path: string): void {
    if (this.reportedCreations.size >= MAX_REMEMBERED_CREATIONS) this.reportedCreations = new Set();
    this.reportedCreations.add(path);
  }

  get state(): WatchState {
    return this.current;
  }

  async start(): Promise<void> {
    const { root, repoRoots, native, logger } = this.options;
    const ignore = repoRoots.flatMap((repo) => UNWATCHED_GIT_FOLDERS.map((folder) => join(root, repo, '.git', folder)));
    this.reconciler.began(Date.now());
    try {
      const subscription = await native.subscribe(
        root,
        ignore,
        (events) => this.onNative(events),
        (error) => this.fail(error),
      );
      if (this.disposed) subscription.dispose();
      else this.subscription = subscription;
      logger.log('info', 'watch_started', { mode: 'native' });
    } catch (error) {
      this.fail(error);
    }
  }

  /** What the pages have in view; polled only while the native watcher is out. */
  setInView(files: string[], folders: string[]): void {
    this.inView = { files, folders };
    this.poller?.setInView(files, folders);
  }

  /** Resolves once the polling look under way, if any, is over (tests). */
  async polled(): Promise<void> {
    await this.poller?.idle();
  }

  /** Resolves once the new-folder listings asked for so far are done (tests). */
  async scanned(): Promise<void> {
    await this.scans;
  }

  /** Resolves once the listings of settled bursts are done (tests). */
  async reconciled(): Promise<void> {
    await this.reconciler.reconciled();
  }

  private onNative(events: NativeEvent[]): void {
    if (this.disposed) return;
    const changes: PathChange[] = [];
    let gitState = false;
    for (const event of events) {
      if (!event.path.startsWith(this.prefix)) continue;
      const rel = sep === '/' ? event.path.slice(this.prefix.length) : event.path.slice(this.prefix.length).split(sep).join('/');
      const verdict = classifyGitPath(rel, this.options.repoRoots);
      if (verdict === 'git_state') gitState = true;
      if (verdict !== 'not_git' || isStagingPath(rel)) continue;
      changes.push({ path: rel, kind: KIND[event.type] });
    }
    if (changes.length > 0) this.changes.fire(changes);
    if (gitState) this.gitTouched.fire();
    this.reconciler.note(changes.map((c) => c.path));
    const created = changes.filter((c) => c.kind === 'created').map((c) => c.path);
    for (const path of created) this.noteReported(path);
    if (created.length > 0) {
      this.scanNewFolders(created);
      // The OS may report the folder before its own watch is in place: look once more when it surely is.
      const rescan = after(this.options.clock, NEW_FOLDER_RESCAN_MS, () => {
        this.rescans.delete(rescan);
        this.scanNewFolders(created);
      });
      this.rescans.add(rescan);
    }
  }

  /**
   * Files written into a new folder before its watch existed are found by listing it
   * (newFolderScan.ts); folders found there that the OS never reported get a watch of our own.
   */
  private scanNewFolders(created: string[]): void {
    this.scans = this.scans
      .then(async () => {
        const found = await scanCreatedFolders(this.options.root, created);
        if (this.disposed) return;
        // Only what nobody reported yet: the OS, or an earlier listing.
        const missed = found.filter(
          (c) => !this.reportedCreations.has(c.path) && classifyGitPath(c.path, this.options.repoRoots) === 'not_git' && !isStagingPath(c.path),
        );
        for (const entry of missed) {
          if (entry.folder) this.patches.add(entry.path);
          this.noteReported(entry.path);
        }
        if (missed.length > 0) this.changes.fire(missed.map(({ path, kind }) => ({ path, kind })));
      })
      .catch(() => undefined);
  }

  /**
   * What the native watcher lost in a burst (burstReconcile.ts): reported now. A lost folder may
   * have no OS watch (an overflowed queue never told the native watcher about it), so it gets one
   * of ours; the listing already went through it.
   */
  private reportMissed(found: ScannedEntry[]): void {
    if (this.disposed) return;
    const missed = found.filter(
      (c) =>
        !(c.kind === 'created' && this.reportedCreations.has(c.path)) &&
        classifyGitPath(c.path, this.options.repoRoots) === 'not_git' &&
        !isStagingPath(c.path),
    );
    for (const entry of missed) {
      if (entry.kind !== 'created') continue;
      if (entry.folder) this.patches.add(entry.path);
      this.noteReported(entry.path);
    }
    if (missed.length > 0) {
      this.options.logger.log('info', 'watch_reconciled', { missed: missed.length });
      this.changes.fire(missed.map(({ path, kind }) => ({ path, kind })));
    }
  }

  /** The native watcher could not start or failed later: poll what is in view from now on. */
  private fail(error: unknown): void {
    if (this.disposed || this.poller) return;
    const reason: WatchDegradedReason = isWatchLimitError(error) ? 'watch_limit' : 'watcher_failed';
    this.options.logger.log('warn', 'watch_degraded', { reason, ...errorFields(error) });
    this.subscription?.dispose();
    this.subscription = undefined;
    this.poller = new PollingWatcher(this.options.root, this.options.clock, this.options.pollIntervalMs, (changes) => {
      const reported = changes.filter((change) => !isStagingPath(change.path));
      if (!this.disposed && reported.length > 0) this.changes.fire(reported);
    });
    this.poller.setInView(this.inView.files, this.inView.folders);
    this.current = { mode: 'polling', reason };
    this.modes.fire(this.current);
  }

  /** Disposes and waits until the OS watch is released (agentctl's shutdown, before it exits). */
  async close(): Promise<void> {
    const subscription = this.subscription;
    this.dispose();
    await subscription?.close();
  }

  dispose(): void {
    this.disposed = true;
    this.subscription?.dispose();
    this.poller?.dispose();
    this.patches.dispose();
    this.reconciler.dispose();
    for (const rescan of this.rescans) rescan.dispose();
    this.rescans.clear();
    this.changes.dispose();
    this.gitTouched.dispose();
    this.modes.dispose();
  }
}
