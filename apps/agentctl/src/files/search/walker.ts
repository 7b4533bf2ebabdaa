import type { SearchHit } from '@kandev/protocol';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IgnoreScope } from './gitignore.js';
import { SKIPPED_DIRS, type SearchLimits } from './limits.js';
import { preview } from './preview.js';
import type { SearchQuery } from './query.js';

export interface SearchOutcome {
  truncated: boolean;
}

/** Files read concurrently by the walker. */
const READ_AHEAD = 16;

/** Where each engine sends its hits, in batches, as they are found. */
export type HitSink = (hits: SearchHit[]) => void;

function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8_000).includes(0);
}

async function readGitignore(dir: string): Promise<string | undefined> {
  try {
    return await readFile(join(dir, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * A file's bytes when it is a regular file within the size limit, read at its exact size (a
 * limit-sized buffer per file would cost a MiB of zeroing for every small file of a large tree).
 */
async function readSmallFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const handle = await open(path, 'r');
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(st.size);
    let filled = 0;
    while (filled < st.size) {
      const { bytesRead } = await handle.read(buffer, filled, st.size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** Every match of `pattern` (global) in one file's text, as 1-based hits, at most `room`. */
export function matchLines(path: string, text: string, pattern: RegExp, room: number, wholeTextPrefilter = false): { hits: SearchHit[]; full: boolean } {
  const hits: SearchHit[] = [];
  // Most files of a large tree do not match: one scan of the whole text settles that cheaply. Only
  // for patterns without line anchors (plain text), which cannot match across lines by design.
  if (wholeTextPrefilter) {
    pattern.lastIndex = 0;
    if (!pattern.test(text)) return { hits, full: false };
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    pattern.lastIndex = 0;
    for (let m = pattern.exec(line); m !== null; m = pattern.exec(line)) {
      if (hits.length >= room) return { hits, full: true };
      // Columns are 1-based UTF-16 offsets, as Monaco counts them.
      hits.push({ path, line: i + 1, column: m.index + 1, preview: preview(line, m.index) });
      if (m[0].length === 0) pattern.lastIndex++;
    }
  }
  return { hits, full: false };
}

/**
 * The search engine for task hosts without ripgrep. Walks without following symlinks (nothing
 * outside the workspace is read, link loops are impossible), in name order so the same tree
 * gives the same hits, honouring .gitignore files, skipping binary and oversized files, and
 * stopping at the limits or when `signal` aborts.
 */
export async function walkSearch(root: string, query: SearchQuery, limits: SearchLimits, signal: AbortSignal, sink: HitSink): Promise<SearchOutcome> {
  const { pattern } = query;
  const prefilter = !query.options.regex;
  const state = { found: 0, visited: 0, truncated: false };
  const skipped = new Set<string>(SKIPPED_DIRS);

  const walk = async (dir: string, rel: string, parentScope: IgnoreScope): Promise<void> => {
    const scope = parentScope.with(rel, await readGitignore(dir));
    let dirents;
    try {
      dirents = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Files are read a few at a time (the disk and the thread pool work while we match), and
    // matched in name order, so hits still arrive in the walk's stable order.
    let batch: Array<{ rel: string; path: string }> = [];
    const flush = async (): Promise<boolean> => {
      const files = batch;
      batch = [];
      const contents = await Promise.all(files.map((f) => readSmallFile(f.path, limits.maxFileBytes).catch(() => undefined)));
      for (let i = 0; i < files.length; i++) {
        if (signal.aborted) return false;
        const bytes = contents[i];
        if (!bytes || looksBinary(bytes)) continue;
        const { hits, full } = matchLines((files[i] as { rel: string }).rel, bytes.toString('utf8'), pattern, limits.maxHits - state.found, prefilter);
        if (hits.length > 0) {
          state.found += hits.length;
          sink(hits);
        }
        if (full) {
          state.truncated = true;
          return false;
        }
      }
      return true;
    };
    for (const d of dirents) {
      if (state.truncated || signal.aborted) return;
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      if (d.isDirectory()) {
        if (skipped.has(d.name) || scope.ignores(childRel, true)) continue;
        if (batch.length > 0 && !(await flush())) return;
        await walk(join(dir, d.name), childRel, scope);
        continue;
      }
      if (!d.isFile() || scope.ignores(childRel, false)) continue;
      if (++state.visited > limits.maxFilesVisited) {
        state.truncated = true;
        await flush();
        return;
      }
      batch.push({ rel: childRel, path: join(dir, d.name) });
      if (batch.length >= READ_AHEAD && !(await flush())) return;
    }
    if (batch.length > 0) await flush();
  };

  await walk(root, '', IgnoreScope.empty());
  return { truncated: state.truncated };
}
