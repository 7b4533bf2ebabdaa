/**
 * A language server's `workspace/didChangeWatchedFiles` watchers, compiled once: which workspace
 * changes it asked to hear of. A string glob is matched against the file's absolute path (as VS
 * Code does), and a pattern without a leading `/` or `**` also against the workspace-relative
 * path; a RelativePattern against the path below its base. `kind` is LSP's bit set (create 1,
 * change 2, delete 4; default all three).
 */
import picomatch from 'picomatch';
import { fileUriToPath, isRecord } from '@kandev/protocol';
import type { ChangeKind } from './coalescer.js';

/** LSP's FileChangeType: the `type` of each change sent to the server. */
export const FILE_CHANGE_TYPE: Record<ChangeKind, 1 | 2 | 3> = { created: 1, changed: 2, deleted: 3 };
const KIND_BIT: Record<ChangeKind, number> = { created: 1, changed: 2, deleted: 4 };
/** Watchers kept per stream (a server asking for more is served the first ones). */
export const MAX_WATCHERS = 256;
const MAX_PATTERN_LENGTH = 1024;

interface CompiledWatcher {
  /** Absolute base folder of a RelativePattern (no trailing slash), or undefined for a string glob. */
  base: string | undefined;
  matchAbsolute: (path: string) => boolean;
  alsoRelative: boolean;
  kinds: number;
}

export class WatchedFilesMatcher {
  private readonly watchers: CompiledWatcher[];

  /** `workspacePath`: the workspace as the server knows it (absolute, `/`-separated). */
  constructor(
    rawWatchers: readonly unknown[],
    private readonly workspacePath: string,
  ) {
    this.watchers = rawWatchers.slice(0, MAX_WATCHERS).flatMap((raw) => {
      const compiled = compileWatcher(raw);
      return compiled ? [compiled] : [];
    });
  }

  get size(): number {
    return this.watchers.length;
  }

  /** Does any watcher want to hear of `kind` on this workspace-relative path? */
  matches(rel: string, kind: ChangeKind): boolean {
    const bit = KIND_BIT[kind];
    const absolute = `${this.workspacePath.replace(/\/+$/, '')}/${rel}`;
    for (const watcher of this.watchers) {
      if ((watcher.kinds & bit) === 0) continue;
      if (watcher.base !== undefined) {
        if (!absolute.startsWith(`${watcher.base}/`)) continue;
        if (watcher.matchAbsolute(absolute.slice(watcher.base.length + 1))) return true;
        continue;
      }
      if (watcher.matchAbsolute(absolute)) return true;
      if (watcher.alsoRelative && watcher.matchAbsolute(rel)) return true;
    }
    return false;
  }
}

function compileWatcher(raw: unknown): CompiledWatcher | undefined {
  if (!isRecord(raw)) return undefined;
  const kinds = typeof raw.kind === 'number' && Number.isInteger(raw.kind) ? raw.kind & 7 : 7;
  const glob = raw.globPattern;
  try {
    if (typeof glob === 'string') {
      if (glob.length === 0 || glob.length > MAX_PATTERN_LENGTH) return undefined;
      return { base: undefined, matchAbsolute: picomatch(glob, { dot: true }), alsoRelative: !glob.startsWith('/') && !glob.startsWith('**'), kinds };
    }
    if (isRecord(glob) && typeof glob.pattern === 'string' && glob.pattern.length <= MAX_PATTERN_LENGTH) {
      const baseUri =
        typeof glob.baseUri === 'string' ? glob.baseUri : isRecord(glob.baseUri) && typeof glob.baseUri.uri === 'string' ? glob.baseUri.uri : undefined;
      if (baseUri === undefined) return undefined;
      const base = fileUriToPath(baseUri).replace(/\/+$/, '');
      return { base, matchAbsolute: picomatch(glob.pattern, { dot: true }), alsoRelative: false, kinds };
    }
  } catch {
    return undefined; // a pattern picomatch refuses, or a base that is not a file URI: ignored
  }
  return undefined;
}
