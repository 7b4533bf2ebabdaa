/**
 * Watches of our own on folders the native watcher may have missed: folders found only by listing
 * a newly created folder (the OS never reported them, so no watch may exist for them). One
 * non-recursive `fs.watch` each, at most `max`, dropped when the folder goes. Its events are
 * reported like the native watcher's; a folder created inside one is watched the same way.
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Disposable } from '@kandev/kit';
import type { PathChange } from './pollingWatcher.js';

export const MAX_PATCH_WATCHES = 2_000;

export class PatchWatches implements Disposable {
  private readonly watches = new Map<string, FSWatcher>();
  private disposed = false;

  constructor(
    private readonly root: string,
    private readonly max: number,
    private readonly report: (changes: PathChange[]) => void,
    private readonly folderCreated: (rel: string) => void,
  ) {}

  get size(): number {
    return this.watches.size;
  }

  add(rel: string): void {
    if (this.disposed || this.watches.has(rel) || this.watches.size >= this.max) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(join(this.root, rel), { persistent: false }, (event, name) => {
        if (name) void this.onEvent(rel, event, name.toString());
      });
    } catch {
      return; // gone, or not watchable: the listing already reported what it found
    }
    watcher.on('error', () => this.remove(rel));
    this.watches.set(rel, watcher);
  }

  private async onEvent(folder: string, event: string, name: string): Promise<void> {
    const path = `${folder}/${name}`;
    if (event === 'change') return this.report([{ path, kind: 'changed' }]);
    let isFolder: boolean;
    try {
      isFolder = (await lstat(join(this.root, path))).isDirectory();
    } catch {
      this.remove(path);
      return this.report([{ path, kind: 'deleted' }]);
    }
    if (this.disposed) return;
    this.report([{ path, kind: 'created' }]);
    if (isFolder) {
      this.add(path);
      this.folderCreated(path);
    }
  }

  private remove(rel: string): void {
    this.watches.get(rel)?.close();
    this.watches.delete(rel);
  }

  dispose(): void {
    this.disposed = true;
    for (const watcher of this.watches.values()) watcher.close();
    this.watches.clear();
  }
}
