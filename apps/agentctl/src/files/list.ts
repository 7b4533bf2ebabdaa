import type { FileEntry, ListFilesResponse } from '@kandev/protocol';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fail, ok, type FilesResult } from '../base/filesResult.js';
import type { Workspace } from './workspace.js';

/** Never listed: repository internals nobody edits through the Files tree. */
const HIDDEN = new Set(['.git']);

/** What a directory entry is once symlinks are followed, or undefined to leave it out. */
async function entryType(workspace: Workspace, path: string, isLink: boolean): Promise<FileEntry['type'] | undefined> {
  try {
    // A symlink is listed only when its target lies inside the workspace; otherwise it does not
    // exist as far as the Files tree is concerned (it could not be opened anyway).
    const real = isLink ? await realpath(path) : path;
    if (isLink && !workspace.contains(real)) return undefined;
    const st = await stat(real);
    if (st.isDirectory()) return 'directory';
    if (st.isFile()) return 'file';
    return undefined;
  } catch {
    return undefined;
  }
}

/** Lists a folder: directories first, then by name; `.git` hidden; sockets, FIFOs and escaping links left out. */
export async function listFiles(workspace: Workspace, rawPath: string): Promise<FilesResult<ListFilesResponse>> {
  const confined = await workspace.confineExisting(rawPath);
  if (!confined.ok) return confined;
  const { real, rel } = confined.value;
  if (!(await stat(real)).isDirectory()) return fail(400, 'bad_request', 'path is not a folder');
  const dirents = await readdir(real, { withFileTypes: true });
  const entries: FileEntry[] = [];
  for (const d of dirents) {
    if (HIDDEN.has(d.name)) continue;
    const type = d.isDirectory() ? 'directory' : d.isFile() ? 'file' : await entryType(workspace, join(real, d.name), d.isSymbolicLink());
    if (type === undefined) continue;
    entries.push({ name: d.name, path: rel.text === '' ? d.name : `${rel.text}/${d.name}`, type });
  }
  entries.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === 'directory' ? -1 : 1));
  return ok({ entries });
}
