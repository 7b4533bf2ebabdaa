/**
 * What a language server hears of the disk: the workspace watcher's changes that match the
 * watchers it registered (the backend hands them over in `watched-files` controls), coalesced per
 * window and written to its stdin as `workspace/didChangeWatchedFiles`, whether a browser is
 * attached or not. Nothing is watched for a server that registered nothing.
 */
import { pathToFileUri } from '@kandev/protocol';
import type { Clock, Disposable } from '@kandev/kit';
import { ChangeCoalescer, type CoalescedWindow } from '../watch/coalescer.js';
import { FILE_CHANGE_TYPE, WatchedFilesMatcher } from '../watch/watchedFiles.js';
import type { WorkspaceWatcher } from '../watch/workspaceWatcher.js';

/** Changes per notification: a checkout of thousands of files reaches the server in several. */
export const MAX_CHANGES_PER_NOTIFICATION = 1_000;

export interface WatchedFilesFeedOptions {
  watcher: WorkspaceWatcher;
  /** The workspace as the server knows it (its root URI's path). */
  workspacePath: string;
  clock: Clock;
  windowMs: number;
  /** Distinct matched paths one window may hold; past it the window is dropped (logged). */
  maxPaths: number;
  /** One JSON-RPC notification's text, to the server's stdin. */
  notify: (text: string) => void;
  onOverflow: () => void;
}

export class WatchedFilesFeed implements Disposable {
  private matcher: WatchedFilesMatcher | undefined;
  private subscription: Disposable | undefined;
  private readonly coalescer: ChangeCoalescer;

  constructor(private readonly options: WatchedFilesFeedOptions) {
    this.coalescer = new ChangeCoalescer({ clock: options.clock, windowMs: options.windowMs, maxPaths: options.maxPaths, onWindow: (w) => this.onWindow(w) });
  }

  /** The server's current watchers (the whole set, replacing the last). */
  setWatchers(watchers: readonly unknown[]): void {
    const matcher = new WatchedFilesMatcher(watchers, this.options.workspacePath);
    this.matcher = matcher.size > 0 ? matcher : undefined;
    if (this.matcher && !this.subscription) {
      this.subscription = this.options.watcher.onChanges((changes) => {
        const current = this.matcher;
        if (!current) return;
        for (const change of changes) if (current.matches(change.path, change.kind)) this.coalescer.add(change.path, change.kind);
      });
    } else if (!this.matcher) {
      this.subscription?.dispose();
      this.subscription = undefined;
    }
  }

  private onWindow(window: CoalescedWindow): void {
    if (window.overflow) return this.options.onOverflow();
    const root = this.options.workspacePath.replace(/\/+$/, '');
    let changes: Array<{ uri: string; type: number }> = [];
    const flush = () => {
      this.options.notify(JSON.stringify({ jsonrpc: '2.0', method: 'workspace/didChangeWatchedFiles', params: { changes } }));
      changes = [];
    };
    for (const [path, kind] of window.changes) {
      changes.push({ uri: pathToFileUri(`${root}/${path}`), type: FILE_CHANGE_TYPE[kind] });
      if (changes.length === MAX_CHANGES_PER_NOTIFICATION) flush();
    }
    if (changes.length > 0) flush();
  }

  dispose(): void {
    this.subscription?.dispose();
    this.subscription = undefined;
    this.coalescer.dispose();
  }
}
