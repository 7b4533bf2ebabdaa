import type { ApiError, SearchHit } from './api.js';

/**
 * Workspace search options, as query parameters of `GET /api/v1/search` (agentctl) and
 * `GET /api/sessions/:id/search` (backend): `q`, `case=1`, `word=1`, `regex=1`, `stream=1`.
 * Without `case=1` the search ignores case; without `regex=1` the query is plain text.
 */
export interface SearchOptions {
  caseSensitive: boolean;
  wholeWord: boolean;
  regex: boolean;
}

export const SEARCH_QUERY_PARAMS = { query: 'q', caseSensitive: 'case', wholeWord: 'word', regex: 'regex', stream: 'stream' } as const;

/** Which engine answered: ripgrep where the task host has it, the bounded walker otherwise. */
export type SearchEngine = 'ripgrep' | 'walker';

/**
 * `stream=1` answers `application/x-ndjson`: one of these per line, hits as they are found, then
 * exactly one `done` or `error` line. Closing the request cancels the search on the task host.
 */
export type SearchStreamLine =
  { type: 'hits'; hits: SearchHit[] } | { type: 'done'; truncated: boolean; engine: SearchEngine } | { type: 'error'; error: ApiError };

export const SEARCH_STREAM_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

export function searchParams(query: string, options: Partial<SearchOptions>, stream: boolean): URLSearchParams {
  const params = new URLSearchParams({ [SEARCH_QUERY_PARAMS.query]: query });
  if (options.caseSensitive) params.set(SEARCH_QUERY_PARAMS.caseSensitive, '1');
  if (options.wholeWord) params.set(SEARCH_QUERY_PARAMS.wholeWord, '1');
  if (options.regex) params.set(SEARCH_QUERY_PARAMS.regex, '1');
  if (stream) params.set(SEARCH_QUERY_PARAMS.stream, '1');
  return params;
}
