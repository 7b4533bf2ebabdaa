import type { SearchEngine, SearchHit, SearchOptions, SearchResponse } from '@kandev/protocol';
import type { TaskEnv } from '../env/taskEnv.js';
import { JSON_SEARCH_LIMITS, type SearchLimits } from './search/limits.js';
import { parseSearchQuery, type SearchQuery } from './search/query.js';
import { findRipgrep, ripgrepSearch, RipgrepRefused } from './search/ripgrep.js';
import { walkSearch, type HitSink } from './search/walker.js';
import { fail, ok, type FilesResult } from '../base/filesResult.js';
import type { Workspace } from './workspace.js';

export { MAX_QUERY_CHARS } from './search/query.js';
export const MAX_SEARCH_HITS = JSON_SEARCH_LIMITS.maxHits;
export const MAX_SEARCH_FILE_BYTES = JSON_SEARCH_LIMITS.maxFileBytes;

const PLAIN: SearchOptions = { caseSensitive: false, wholeWord: false, regex: false };

/** Which engine searches: ripgrep when the task environment's PATH has it, else the walker. */
export interface SearchEngineChoice {
  ripgrep: string | undefined;
}

export function chooseSearchEngine(env: TaskEnv): SearchEngineChoice {
  return { ripgrep: findRipgrep(env) };
}

/**
 * One search with either engine, hits to `sink` as they are found. A ripgrep that fails to start
 * falls back to the walker, so a broken rg costs speed, never answers.
 */
export async function runSearch(
  workspace: Workspace,
  query: SearchQuery,
  limits: SearchLimits,
  engine: SearchEngineChoice,
  signal: AbortSignal,
  sink: HitSink,
): Promise<FilesResult<{ truncated: boolean; engine: SearchEngine }>> {
  if (engine.ripgrep) {
    let delivered = false;
    try {
      const outcome = await ripgrepSearch(engine.ripgrep, workspace.real, query, limits, signal, (hits) => {
        delivered = true;
        sink(hits);
      });
      return ok({ truncated: outcome.truncated, engine: 'ripgrep' });
    } catch (err) {
      if (err instanceof RipgrepRefused) return fail(400, 'bad_request', `the search was refused: ${err.message}`);
      if (delivered) throw err;
    }
  }
  const outcome = await walkSearch(workspace.real, query, limits, signal, sink);
  return ok({ truncated: outcome.truncated, engine: 'walker' });
}

/** Plain-text search of the workspace (case-insensitive unless asked), as one JSON answer. */
export async function searchWorkspace(
  workspace: Workspace,
  text: string,
  options: SearchOptions = PLAIN,
  engine: SearchEngineChoice = { ripgrep: undefined },
): Promise<FilesResult<SearchResponse>> {
  const query = parseSearchQuery(text, options);
  if (!query.ok) return query;
  const hits: SearchHit[] = [];
  const outcome = await runSearch(workspace, query.value, JSON_SEARCH_LIMITS, engine, new AbortController().signal, (batch) => void hits.push(...batch));
  if (!outcome.ok) return outcome;
  // ripgrep searches in parallel; a stable order keeps one answer the same from one call to the next.
  if (outcome.value.engine === 'ripgrep') hits.sort(byLocation);
  return ok(outcome.value.truncated ? { hits, truncated: true } : { hits });
}

function byLocation(a: SearchHit, b: SearchHit): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  return a.line - b.line || a.column - b.column;
}
