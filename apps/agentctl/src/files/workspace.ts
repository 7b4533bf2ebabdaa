import { lstat, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fail, notFound, ok, outside, type FilesResult } from '../base/filesResult.js';

/** A workspace-relative path, checked lexically: its clean segments. */
export interface RelativePath {
  segments: string[];
  /** The clean relative path, `/`-separated, as it appears in API answers. */
  text: string;
}

/** An existing file or folder inside the workspace, by its real path. */
export interface ConfinedExisting {
  rel: RelativePath;
  real: string;
}

/** Where a write lands: the real path of the file, which may not exist yet. */
export interface ConfinedWriteTarget {
  rel: RelativePath;
  target: string;
  exists: boolean;
  /** Real path of the deepest existing ancestor folder, and the folders still to create below it. */
  existingParent: string;
  missingDirs: string[];
}

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Lexical checks, before touching the disk: no NUL, no absolute path (POSIX, UNC or drive letter),
 * no `..` segment anywhere (even `a/../b`: refusing is simpler than proving it harmless).
 */
export function parseRelativePath(raw: string): FilesResult<RelativePath> {
  if (raw.includes('\0')) return fail(400, 'bad_request', 'path contains a NUL byte');
  if (raw.startsWith('/') || raw.startsWith('\\') || /^[A-Za-z]:/.test(raw)) return outside();
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return outside();
  return ok({ segments, text: segments.join('/') });
}

/**
 * The workspace root and the confinement rule for every files-API path: a path is inside when its
 * real path (symlinks resolved) is the workspace's real path or below it.
 */
export class Workspace {
  private constructor(
    readonly path: string,
    readonly real: string,
  ) {}

  static async open(path: string): Promise<Workspace> {
    return new Workspace(path, await realpath(path));
  }

  contains(real: string): boolean {
    return real === this.real || real.startsWith(this.real.endsWith(sep) ? this.real : this.real + sep);
  }

  /** An existing path (list, read). Dangling or escaping symlinks are refused, missing paths are 404. */
  async confineExisting(raw: string): Promise<FilesResult<ConfinedExisting>> {
    const parsed = parseRelativePath(raw);
    if (!parsed.ok) return parsed;
    const lexical = join(this.real, ...parsed.value.segments);
    let real: string;
    try {
      real = await realpath(lexical);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return (await this.isDanglingLink(lexical)) ? outside() : notFound();
      if (errnoCode(err) === 'ELOOP') return outside();
      throw err;
    }
    if (!this.contains(real)) return outside();
    return ok({ rel: parsed.value, real });
  }

  /**
   * A write target. For an existing file: its real path. For a new file: the nearest existing
   * ancestor's real path must be inside, and no component on the way may be a dangling symlink
   * (writing through one would create its target, wherever that is).
   */
  async confineForWrite(raw: string): Promise<FilesResult<ConfinedWriteTarget>> {
    const parsed = parseRelativePath(raw);
    if (!parsed.ok) return parsed;
    const segments = parsed.value.segments;
    if (segments.length === 0) return fail(400, 'bad_request', 'a file path is required');
    const existing = await this.confineExisting(raw);
    if (existing.ok) {
      const st = await stat(existing.value.real);
      if (!st.isFile()) return fail(400, 'bad_request', 'path is not a regular file');
      const parent = existing.value.real.slice(0, existing.value.real.lastIndexOf(sep)) || sep;
      return ok({ rel: parsed.value, target: existing.value.real, exists: true, existingParent: parent, missingDirs: [] });
    }
    if (existing.error.code !== 'not_found') return existing;
    // Walk up to the nearest existing ancestor.
    for (let depth = segments.length - 1; depth >= 0; depth--) {
      const lexical = join(this.real, ...segments.slice(0, depth));
      if (await this.isDanglingLink(lexical)) return outside();
      let real: string;
      try {
        real = await realpath(lexical);
      } catch (err) {
        if (errnoCode(err) === 'ENOENT') continue;
        if (errnoCode(err) === 'ENOTDIR') return fail(400, 'bad_request', 'a parent of the path is not a folder');
        if (errnoCode(err) === 'ELOOP') return outside();
        throw err;
      }
      if (!this.contains(real)) return outside();
      if (!(await stat(real)).isDirectory()) return fail(400, 'bad_request', 'a parent of the path is not a folder');
      const missing = segments.slice(depth, -1);
      const missingDirs = missing.map((_, i) => join(real, ...missing.slice(0, i + 1)));
      return ok({ rel: parsed.value, target: join(real, ...segments.slice(depth)), exists: false, existingParent: real, missingDirs });
    }
    return notFound();
  }

  private async isDanglingLink(path: string): Promise<boolean> {
    try {
      return (await lstat(path)).isSymbolicLink();
    } catch {
      return false;
    }
  }
}
