import type { FileEntry } from '@kandev/protocol';

/** Folders quick open does not walk: dependencies, VCS data, build output and caches. */
export const SKIPPED_FOLDERS = new Set([
  '.git',
  'node_modules',
  'dist',
  'build',
  'out',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.gradle',
  '.idea',
  '.next',
  'coverage',
  'vendor',
]);

export interface FileIndexResult {
  paths: string[];
  /** The walk stopped at its bound: the list is not the whole workspace. */
  truncated: boolean;
}

export interface FileIndexOptions {
  maxFiles?: number;
  maxFolders?: number;
  concurrency?: number;
  /** Called as listings arrive with every path found so far (unsorted): a picker shows first results while the walk goes on. */
  onProgress?(paths: readonly string[]): void;
}

/**
 * Every file of a workspace, walked breadth-first through the files API (one listing a folder),
 * a few folders at a time, within bounds so a huge checkout cannot stall the page. A folder that
 * fails to list is skipped; the rest still count.
 */
export async function indexWorkspaceFiles(list: (folder: string) => Promise<FileEntry[]>, options: FileIndexOptions = {}): Promise<FileIndexResult> {
  const maxFiles = options.maxFiles ?? 200_000;
  const maxFolders = options.maxFolders ?? 20_000;
  const concurrency = options.concurrency ?? 4;
  const queue: string[] = [''];
  const paths: string[] = [];
  let folders = 0;
  let truncated = false;
  const worker = async (): Promise<void> => {
    while (queue.length > 0 && !truncated) {
      const folder = queue.shift() as string;
      if (++folders > maxFolders) {
        truncated = true;
        return;
      }
      let entries: FileEntry[];
      try {
        entries = await list(folder);
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (entry.type === 'directory') {
          if (!SKIPPED_FOLDERS.has(entry.name)) queue.push(entry.path);
        } else if (paths.length < maxFiles) {
          paths.push(entry.path);
        } else {
          truncated = true;
        }
      }
      options.onProgress?.(paths);
    }
  };
  // Workers pick folders up as listings arrive, so a deep tree still lists in parallel.
  let active: Promise<void>[] = [];
  while ((queue.length > 0 || active.length > 0) && !truncated) {
    while (active.length < concurrency && queue.length > 0) {
      const run: Promise<void> = worker().finally(() => {
        active = active.filter((p) => p !== run);
      });
      active.push(run);
    }
    if (active.length > 0) await Promise.race(active);
  }
  await Promise.all(active);
  paths.sort((a, b) => a.localeCompare(b));
  return { paths, truncated };
}

/** A walk as quick open shows it: the paths found so far while listing, then the whole result. */
export type FileIndexState = { state: 'listing'; paths: readonly string[] } | { state: 'error' } | ({ state: 'loaded' } & FileIndexResult);

export interface LiveFileIndex {
  readonly state: FileIndexState;
  /** Called on each listing that arrives and when the walk ends; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  readonly done: Promise<FileIndexResult>;
}

/** One walk of each session's workspace per window, reused by quick open; a failed walk is retried on the next ask. */
export class SessionFileIndexes {
  private readonly indexes = new Map<string, LiveFileIndex>();

  /** The session's walk, started on first ask; its state grows while it lists. */
  live(sessionId: string, list: (folder: string) => Promise<FileEntry[]>): LiveFileIndex {
    const existing = this.indexes.get(sessionId);
    if (existing && existing.state.state !== 'error') return existing;
    const listeners = new Set<() => void>();
    let state: FileIndexState = { state: 'listing', paths: [] };
    const set = (next: FileIndexState) => {
      state = next;
      for (const l of [...listeners]) l();
    };
    const done = indexWorkspaceFiles(list, { onProgress: (paths) => set({ state: 'listing', paths }) });
    done.then(
      (result) => set({ state: 'loaded', ...result }),
      () => {
        set({ state: 'error' });
        if (this.indexes.get(sessionId) === index) this.indexes.delete(sessionId);
      },
    );
    const index: LiveFileIndex = {
      get state() {
        return state;
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      done,
    };
    this.indexes.set(sessionId, index);
    return index;
  }

  get(sessionId: string, list: (folder: string) => Promise<FileEntry[]>): Promise<FileIndexResult> {
    return this.live(sessionId, list).done;
  }
}
