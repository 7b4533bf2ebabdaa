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
}

/**
 * Every file of a workspace, walked breadth-first through the files API (one listing a folder),
 * a few folders at a time, within bounds so a huge checkout cannot stall the page. A folder that
 * fails to list is skipped; the rest still count.
 */
export async function indexWorkspaceFiles(list: (folder: string) => Promise<FileEntry[]>, options: FileIndexOptions = {}): Promise<FileIndexResult> {
  const maxFiles = options.maxFiles ?? 20_000;
  const maxFolders = options.maxFolders ?? 2_000;
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

/** One walk of each session's workspace per window, reused by quick open; a failed walk is retried on the next ask. */
export class SessionFileIndexes {
  private readonly indexes = new Map<string, Promise<FileIndexResult>>();

  get(sessionId: string, list: (folder: string) => Promise<FileEntry[]>): Promise<FileIndexResult> {
    let pending = this.indexes.get(sessionId);
    if (!pending) {
      pending = indexWorkspaceFiles(list);
      this.indexes.set(sessionId, pending);
      pending.catch(() => this.indexes.delete(sessionId));
    }
    return pending;
  }
}
