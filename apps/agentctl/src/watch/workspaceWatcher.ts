/**
 * One watcher per workspace (agentctl has one workspace): the OS's notifications through the
 * native watcher, or, when the OS refuses (the inotify watch limit), polling of what the pages have
 * in view. Reports workspace-relative changes as they arrive (consumers coalesce them), tells the
 * git state when a repository's HEAD, index or refs moved, and never reports `.git` internals.
 * A watcher failure degrades to polling; it never throws out of here.
 */
import { join, sep } from 'node:path';
import { Emitter, type Clock, type Disposable } from '@kandev/kit';
import type { WatchDegradedReason, WatchMode } from '@kandev/protocol';
import { errorFields, type Logger } from '../base/log.js';
import type { ChangeKind } from './coalescer.js';
import { classifyGitPath, UNWATCHED_GIT_FOLDERS } from './gitPaths.js';
import type { NativeEvent, NativeWatcher } from './nativeWatcher.js';
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
  private subscription: Disposable | undefined;
  private poller: PollingWatcher | undefined;
  private inView: { files: string[]; folders: string[] } = { files: [], folders: [] };
  private current: WatchState = { mode: 'native' };
  private disposed = false;
  private readonly prefix: string;

  readonly onChanges = this.changes.event;
  readonly onGitTouched = this.gitTouched.event;
  readonly onMode = this.modes.event;

  constructor(private readonly options: WorkspaceWatcherOptions) {
    this.prefix = options.root.endsWith(sep) ? options.root : options.root + sep;
  }

  get state(): WatchState {
    return this.current;
  }

  async start(): Promise<void> {
    const { root, repoRoots, native, logger } = this.options;
    const ignore = repoRoots.flatMap((repo) => UNWATCHED_GIT_FOLDERS.map((folder) => join(root, repo, '.git', folder)));
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

  private onNative(events: NativeEvent[]): void {
    if (this.disposed) return;
    const changes: PathChange[] = [];
    let gitState = false;
    for (const event of events) {
      if (!event.path.startsWith(this.prefix)) continue;
      const rel = sep === '/' ? event.path.slice(this.prefix.length) : event.path.slice(this.prefix.length).split(sep).join('/');
      const verdict = classifyGitPath(rel, this.options.repoRoots);
      if (verdict === 'git_state') gitState = true;
      if (verdict !== 'not_git') continue;
      changes.push({ path: rel, kind: KIND[event.type] });
    }
    if (changes.length > 0) this.changes.fire(changes);
    if (gitState) this.gitTouched.fire();
  }

  /** The native watcher could not start or failed later: poll what is in view from now on. */
  private fail(error: unknown): void {
    if (this.disposed || this.poller) return;
    const reason: WatchDegradedReason = isWatchLimitError(error) ? 'watch_limit' : 'watcher_failed';
    this.options.logger.log('warn', 'watch_degraded', { reason, ...errorFields(error) });
    this.subscription?.dispose();
    this.subscription = undefined;
    this.poller = new PollingWatcher(this.options.root, this.options.clock, this.options.pollIntervalMs, (changes) => {
      if (!this.disposed) this.changes.fire(changes);
    });
    this.poller.setInView(this.inView.files, this.inView.folders);
    this.current = { mode: 'polling', reason };
    this.modes.fire(this.current);
  }

  dispose(): void {
    this.disposed = true;
    this.subscription?.dispose();
    this.poller?.dispose();
    this.changes.dispose();
    this.gitTouched.dispose();
    this.modes.dispose();
  }
}
