/**
 * A folder created with files already in it (an unpacked archive, `npm install`, `git checkout`,
 * `mkdir -p`) races the OS watch: inotify watches a new folder only once it is told the folder
 * exists, so what is written into it before that is never reported, and a folder created inside a
 * new folder in the same instant may never be watched at all. Each created folder is therefore
 * listed, and what is in it reported as created (duplicates merge in the coalescing window).
 * Bounded: at most MAX_SCANNED_ENTRIES entries per listing, never following links.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PathChange } from './pollingWatcher.js';

export const MAX_SCANNED_ENTRIES = 20_000;

export interface ScannedEntry extends PathChange {
  folder: boolean;
}

/** What lies below the created workspace-relative paths that are folders, as `created` entries. */
export async function scanCreatedFolders(root: string, created: readonly string[]): Promise<ScannedEntry[]> {
  const found: ScannedEntry[] = [];
  for (const rel of created) {
    if (found.length >= MAX_SCANNED_ENTRIES) break;
    let isFolder = false;
    try {
      isFolder = (await lstat(join(root, rel))).isDirectory();
    } catch {
      continue; // gone already
    }
    if (isFolder) await walk(root, rel, found);
  }
  return found;
}

async function walk(root: string, rel: string, found: ScannedEntry[]): Promise<void> {
  const pending = [rel];
  while (pending.length > 0 && found.length < MAX_SCANNED_ENTRIES) {
    const folder = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(join(root, folder), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (found.length >= MAX_SCANNED_ENTRIES) break;
      const path = `${folder}/${entry.name}`;
      const folderEntry = entry.isDirectory();
      found.push({ path, kind: 'created', folder: folderEntry });
      if (folderEntry) pending.push(path);
    }
  }
}
