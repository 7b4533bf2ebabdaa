import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  FILE_BYTES_CONTENT_TYPE,
  MAX_JSON_SAVE_BODY_BYTES,
  MAX_SAVE_BYTES,
  WRITE_BASE_VERSION_PARAM,
  isRecord,
  scanJsonNesting,
  type WriteFileRequest,
} from '@kandev/protocol';
import { readBoundedBody, streamedBody } from '@kandev/node-transport';
import { sendError, sendJson } from '../http/respond.js';
import type { Logger } from '../base/log.js';
import { writeWorkspaceFileFrom, type StagedWriteOutcome } from './stagedWrite.js';
import { writeWorkspaceFile } from './write.js';
import type { Workspace } from './workspace.js';

function parseWriteRequest(text: string): WriteFileRequest | undefined {
  let value: unknown;
  if (scanJsonNesting(text).tooDeep) return undefined;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { content, baseVersion } = value;
  if (typeof content !== 'string') return undefined;
  if (baseVersion !== undefined && typeof baseVersion !== 'string') return undefined;
  return { content, baseVersion };
}

function isFileBytes(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === FILE_BYTES_CONTENT_TYPE;
}

function tooLarge(res: ServerResponse, limit: number): void {
  sendError(res, 413, 'too_large', `the content is larger than ${limit} bytes`, { limit });
}

function answer(res: ServerResponse, outcome: StagedWriteOutcome, logger: Logger): void {
  if (outcome.ok) {
    sendJson(res, 200, outcome.value);
    return;
  }
  if ('currentVersion' in outcome) sendError(res, 409, 'conflict', outcome.error.message, { currentVersion: outcome.currentVersion });
  else if ('limit' in outcome) tooLarge(res, outcome.limit);
  else if ('cutOff' in outcome) res.destroy();
  else {
    if (outcome.error.code === 'path_outside_workspace') logger.log('warn', 'path_refused', { route: 'file' });
    sendError(res, outcome.error.status, outcome.error.code, outcome.error.message);
  }
}

/**
 * PUT file (docs/internals.md, "Saving"). The editor sends the raw bytes (FILE_BYTES_CONTENT_TYPE,
 * the base version in the query): streamed into a staged temp file, counted as they arrive, so a
 * body over MAX_SAVE_BYTES is refused with 413 after at most that many bytes. The JSON form
 * `{"content","baseVersion"}` stays for small writes and is parsed whole.
 */
export async function handleWrite(workspace: Workspace, path: string, req: IncomingMessage, res: ServerResponse, url: URL, logger: Logger): Promise<void> {
  if (isFileBytes(req)) {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_SAVE_BYTES) {
      // Refused before reading: the rest is drained, so the socket can still carry the answer.
      req.resume();
      tooLarge(res, MAX_SAVE_BYTES);
      return;
    }
    const baseVersion = url.searchParams.get(WRITE_BASE_VERSION_PARAM) ?? undefined;
    // The request stays open when the writer stops reading early (too large): the answer still goes out.
    const streamed = streamedBody(req);
    const outcome = await writeWorkspaceFileFrom(workspace, path, streamed.body, {
      baseVersion,
      limit: MAX_SAVE_BYTES,
      complete: () => req.complete,
      cutOff: streamed.cutOff,
    });
    streamed.dispose();
    if (!outcome.ok && 'limit' in outcome) req.resume();
    answer(res, outcome, logger);
    return;
  }
  const body = await readBoundedBody(req, MAX_JSON_SAVE_BODY_BYTES);
  if (!body.ok) {
    if (body.reason === 'too_large') tooLarge(res, MAX_JSON_SAVE_BODY_BYTES);
    else res.destroy();
    return;
  }
  const request = parseWriteRequest(body.text);
  if (!request) {
    sendError(res, 400, 'bad_request', `body must be {"content": string, "baseVersion"?: string}, or the file's bytes as ${FILE_BYTES_CONTENT_TYPE}`);
    return;
  }
  answer(res, await writeWorkspaceFile(workspace, path, request.content, request.baseVersion), logger);
}
