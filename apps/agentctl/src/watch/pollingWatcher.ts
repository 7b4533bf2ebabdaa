/**
 * The fallback when the OS cannot watch the workspace (the inotify watch limit is reached): every
 * `intervalMs` it looks at the paths the pages have in view (open files, expanded folders) and
 * reports what differs from the last look. Bounded by what is in view, never the whole tree.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock, Disposable } from '@kandev/kit';
import type { ChangeKind } from './coalescer.js';

export interface PathChange {
  path: string;
  kind: ChangeKind;
}

/** What a look saw: a file's size and mtime, a folder's entries, or nothing (missing). */
type Seen = { kind: 'file'; signature: string } | { kind: 'folder'; entries: Set<string> } | { kind: 'missing' };

/** At most this many paths are polled, whatever pages report: one look stays cheap. */
export const MAX_POLLED_PATHS = 500;

export class PollingWatcher implements Disposable {
  private files = new Set<string>();
  private folders = new Set<string>();
  private readonly seen = new Map<string, Seen>();
  private readonly timer: Disposable;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly root: string,
    clock: Clock,
    intervalMs: number,
    private readonly report: (changes: PathChange[]) => void,
  ) {
    this.timer = clock.every(intervalMs, () => void this.look());
  }

  /** The union of what every page has in view (workspace-relative, `/`-separated, already confined). */
  setInView(files: Iterable<string>, folders: Iterable<string>): void {
    this.files = new Set([...files].slice(0, MAX_POLLED_PATHS));
    this.folders = new Set([...folders].slice(0, MAX_POLLED_PATHS));
    for (const key of this.seen.keys()) {
      const [type, path] = [key[0], key.slice(2)];
      if (type === 'f' ? !this.files.has(path) : !this.folders.has(path)) this.seen.delete(key);
    }
  }

  /** One look now (the timer's job); a look already under way is not doubled. */
  look(): Promise<void> {
    this.looking ??= this.lookOnce().finally(() => (this.looking = undefined));
    return this.looking;
  }

  /** Resolves once the look under way, if any, is over. */
  async idle(): Promise<void> {
    await this.looking;
  }

  private async lookOnce(): Promise<void> {
    const changes: PathChange[] = [];
    for (const path of this.files) await this.lookAtFile(path, changes);
    for (const path of this.folders) await this.lookAtFolder(path, changes);
    if (changes.length > 0) this.report(changes);
  }

  private async lookAtFile(path: string, changes: PathChange[]): Promise<void> {
    const key = `f:${path}`;
    const now = await this.fileSeen(path);
    const before = this.seen.get(key);
    this.seen.set(key, now);
    if (!before) return; // the first look is the baseline
    if (before.kind === 'missing' && now.kind !== 'missing') changes.push({ path, kind: 'created' });
    else if (before.kind !== 'missing' && now.kind === 'missing') changes.push({ path, kind: 'deleted' });
    else if (before.kind === 'file' && now.kind === 'file' && before.signature !== now.signature) changes.push({ path, kind: 'changed' });
  }

  private async lookAtFolder(path: string, changes: PathChange[]): Promise<void> {
    const key = `d:${path}`;
    const now = await this.folderSeen(path);
    const before = this.seen.get(key);
    this.seen.set(key, now);
    if (!before || before.kind !== 'folder' || now.kind !== 'folder') return;
    const child = (name: string) => (path === '' ? name : `${path}/${name}`);
    for (const name of now.entries) if (!before.entries.has(name)) changes.push({ path: child(name), kind: 'created' });
    for (const name of before.entries) if (!now.entries.has(name)) changes.push({ path: child(name), kind: 'deleted' });
  }

  private async fileSeen(path: string): Promise<Seen> {
    try {
      const st = await lstat(join(this.root, path));
      return { kind: 'file', signature: `${st.size}:${st.mtimeMs}:${st.ino}` };
    } catch {
      return { kind: 'missing' };
    }
  }

  private async folderSeen(path: string): Promise<Seen> {
    try {
      return { kind: 'folder', entries: new Set(await readdir(join(this.root, path))) };
    } catch {
      return { kind: 'missing' };
    }
  }

  dispose(): void {
    this.timer.dispose();
    this.seen.clear();
  }
}
