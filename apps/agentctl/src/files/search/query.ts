import { SEARCH_QUERY_PARAMS, type SearchOptions } from '@kandev/protocol';
import { fail, ok, type FilesResult } from '../../base/filesResult.js';

export const MAX_QUERY_CHARS = 256;

/** A validated search: the text, its options, and the pattern the walker matches with. */
export interface SearchQuery {
  text: string;
  options: SearchOptions;
  /** Global (`g`) pattern equivalent to what ripgrep is asked for. */
  pattern: RegExp;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const flag = (params: URLSearchParams, name: string) => params.get(name) === '1' || params.get(name) === 'true';

export function searchOptionsOf(params: URLSearchParams): SearchOptions {
  return {
    caseSensitive: flag(params, SEARCH_QUERY_PARAMS.caseSensitive),
    wholeWord: flag(params, SEARCH_QUERY_PARAMS.wholeWord),
    regex: flag(params, SEARCH_QUERY_PARAMS.regex),
  };
}

/** Bad input gets a 400 that says what is wrong, before any file is read or any process starts. */
export function parseSearchQuery(text: string, options: SearchOptions): FilesResult<SearchQuery> {
  if (text.length === 0) return fail(400, 'bad_request', 'q is required');
  if (text.length > MAX_QUERY_CHARS) return fail(400, 'bad_request', `q is longer than ${MAX_QUERY_CHARS} characters`);
  if (text.includes('\n') || text.includes('\r')) return fail(400, 'bad_request', 'q must be a single line');
  const source = options.regex ? text : escapeRegExp(text);
  let pattern: RegExp;
  try {
    pattern = new RegExp(options.wholeWord ? `\\b(?:${source})\\b` : source, options.caseSensitive ? 'gu' : 'giu');
  } catch (err) {
    return fail(400, 'bad_request', `q is not a valid regular expression: ${(err as Error).message}`);
  }
  return ok({ text, options, pattern });
}
