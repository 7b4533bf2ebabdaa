import { SEARCH_QUERY_PARAMS, SEARCH_STREAM_CONTENT_TYPE, type SearchStreamLine } from '@kandev/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError, sendJson } from '../http/respond.js';
import type { Logger } from '../base/log.js';
import { runSearch, searchWorkspace, type SearchEngineChoice } from './search.js';
import { STREAM_SEARCH_LIMITS } from './search/limits.js';
import { parseSearchQuery, searchOptionsOf } from './search/query.js';
import type { Workspace } from './workspace.js';

/**
 * `GET /api/v1/search`: one JSON answer, or with `stream=1` NDJSON lines (SearchStreamLine) written
 * as hits are found. A client that goes away (the browser typed on, the backend's request was
 * aborted) cancels the search: ripgrep is killed, the walker stops at its next file.
 */
export async function handleSearch(
  workspace: Workspace,
  engine: SearchEngineChoice,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  logger: Logger,
): Promise<void> {
  const text = url.searchParams.get(SEARCH_QUERY_PARAMS.query) ?? '';
  const options = searchOptionsOf(url.searchParams);
  if (url.searchParams.get(SEARCH_QUERY_PARAMS.stream) !== '1') {
    const result = await searchWorkspace(workspace, text, options, engine);
    if (result.ok) sendJson(res, 200, result.value);
    else sendError(res, result.error.status, result.error.code, result.error.message);
    return;
  }
  const query = parseSearchQuery(text, options);
  if (!query.ok) {
    sendError(res, query.error.status, query.error.code, query.error.message);
    return;
  }
  const cancel = new AbortController();
  const onGone = () => {
    if (!res.writableEnded) cancel.abort();
  };
  res.once('close', onGone);
  res.writeHead(200, { 'content-type': SEARCH_STREAM_CONTENT_TYPE, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  // Headers out now, so the client sees the stream open before the first hit.
  res.flushHeaders();
  const write = (line: SearchStreamLine) => res.write(`${JSON.stringify(line)}\n`);
  const started = performance.now();
  try {
    const outcome = await runSearch(workspace, query.value, STREAM_SEARCH_LIMITS, engine, cancel.signal, (hits) => void write({ type: 'hits', hits }));
    if (cancel.signal.aborted) {
      logger.log('info', 'search_cancelled', { engine: engine.ripgrep ? 'ripgrep' : 'walker' });
      return;
    }
    if (outcome.ok) write({ type: 'done', truncated: outcome.value.truncated, engine: outcome.value.engine });
    else write({ type: 'error', error: { code: outcome.error.code, message: outcome.error.message } });
    logger.log('info', 'search_finished', { engine: outcome.ok ? outcome.value.engine : 'refused', ms: Math.round(performance.now() - started) });
  } catch (err) {
    write({ type: 'error', error: { code: 'internal', message: 'the search failed' } });
    logger.log('error', 'search_failed', { message: (err as Error).message });
  } finally {
    res.off('close', onGone);
    res.end();
  }
}
