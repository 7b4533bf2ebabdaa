import type { SearchHit, SearchResponse } from '@kandev/protocol';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readBounded } from './read.js';
import { fail, ok, type FilesResult } from './result.js';
import type { Workspace } from './workspace.js';

export const MAX_SEARCH_HITS = 200;
export const MAX_SEARCH_FILE_BYTES = 1024 * 1024;
export const MAX_QUERY_CHARS = 256;
/** Bounds the walk of a huge workspace; the answer is then marked truncated. */
const MAX_FILES_VISITED = 50_000;
const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const PREVIEW_CHARS = 240;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8_000).includes(0);
}

function preview(line: string, index: number): string {
  if (line.length <= PREVIEW_CHARS) return line;
  const start = Math.max(0, Math.min(index - 60, line.length - PREVIEW_CHARS));
  return line.slice(start, start + PREVIEW_CHARS);
}

interface WalkState {
  hits: SearchHit[];
  visited: number;
  truncated: boolean;
}

/**
 * Walks without following symlinks (so nothing outside the workspace is read and link loops are
 * impossible), in name order so the same tree gives the same hits.
 */
async function walk(dir: string, rel: string, pattern: RegExp, state: WalkState): Promise<void> {
  let dirents;
  try {
    dirents = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const d of dirents) {
    if (state.truncated) return;
    const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
    if (d.isDirectory()) {
      if (!SKIPPED_DIRS.has(d.name)) await walk(join(dir, d.name), childRel, pattern, state);
      continue;
    }
    if (!d.isFile()) continue;
    if (++state.visited > MAX_FILES_VISITED) {
      state.truncated = true;
      return;
    }
    let read;
    try {
      read = await readBounded(join(dir, d.name), MAX_SEARCH_FILE_BYTES);
    } catch {
      continue;
    }
    if (read.kind !== 'file' || looksBinary(read.bytes)) continue;
    const lines = read.bytes.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = (lines[i] as string).replace(/\r$/, '');
      pattern.lastIndex = 0;
      for (let m = pattern.exec(line); m !== null; m = pattern.exec(line)) {
        if (state.hits.length >= MAX_SEARCH_HITS) {
          state.truncated = true;
          return;
        }
        // Columns are 1-based UTF-16 offsets, as Monaco counts them.
        state.hits.push({ path: childRel, line: i + 1, column: m.index + 1, preview: preview(line, m.index) });
        if (m[0].length === 0) pattern.lastIndex++;
      }
    }
  }
}

/** Case-insensitive plain-text search of the workspace: at most 200 hits. */
export async function searchWorkspace(workspace: Workspace, query: string): Promise<FilesResult<SearchResponse>> {
  if (query.length === 0) return fail(400, 'bad_request', 'q is required');
  if (query.length > MAX_QUERY_CHARS) return fail(400, 'bad_request', `q is longer than ${MAX_QUERY_CHARS} characters`);
  if (query.includes('\n')) return fail(400, 'bad_request', 'q must be a single line');
  const state: WalkState = { hits: [], visited: 0, truncated: false };
  await walk(workspace.real, '', new RegExp(escapeRegExp(query), 'gi'), state);
  return ok(state.truncated ? { hits: state.hits, truncated: true } : { hits: state.hits });
}
