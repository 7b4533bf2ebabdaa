import type { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBoundedBody } from '@kandev/node-transport';
import { MAX_JSON_DEPTH, scanJsonNesting, type ApiError, type ApiErrorCode } from '@kandev/protocol';
import { apiError, fail, ok, type Result } from '../base/result.js';

/** What a route answers: JSON, or bytes passed through unchanged (files API, metrics). */
export type Reply = { status: number; json: unknown } | { status: number; contentType: string; body: string | Buffer } | StreamReply;

/** A body passed on as it arrives (a streamed search); `cancel` runs when the client goes away first. */
export interface StreamReply {
  status: number;
  contentType: string;
  stream: Readable;
  cancel(): void;
}

export const HTTP_STATUS: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  path_outside_workspace: 403,
  not_found: 404,
  conflict: 409,
  session_not_running: 409,
  too_large: 413,
  unsupported_media_type: 415,
  executor_unsupported: 422,
  internal: 500,
  task_host_unavailable: 502,
};

/** `{"error":{"code","message"}}`, plus any extra top-level fields (e.g. the failed session). */
export function errorReply(error: ApiError, extra: Record<string, unknown> = {}): Reply {
  return { status: HTTP_STATUS[error.code], json: { ...extra, error } };
}

export function errorOf(code: ApiErrorCode, message: string): Reply {
  return errorReply(apiError(code, message));
}

export function writeReply(res: ServerResponse, reply: Reply): void {
  if ('stream' in reply) {
    writeStreamReply(res, reply);
    return;
  }
  const body = 'json' in reply ? JSON.stringify(reply.json) : reply.body;
  const contentType = 'json' in reply ? 'application/json; charset=utf-8' : reply.contentType;
  res.writeHead(reply.status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function writeStreamReply(res: ServerResponse, reply: StreamReply): void {
  res.writeHead(reply.status, { 'content-type': reply.contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.flushHeaders();
  res.once('close', () => {
    if (!res.writableFinished) {
      reply.cancel();
      reply.stream.destroy();
    }
  });
  reply.stream.once('error', () => res.destroy());
  reply.stream.pipe(res);
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON body of at most `limit` bytes. The limit is checked while reading, so an oversized
 * body is refused without being buffered; the raw text is returned too, for forwarding unchanged.
 */
export async function readJsonBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Result<{ value: unknown; text: string }>> {
  const body = await readBoundedBody(req, limit);
  if (!body.ok) {
    if (body.reason === 'too_large') return fail(apiError('too_large', `the body exceeds ${limit} bytes`));
    // A client that hangs up mid-body gets no answer, but the handler must not wait forever.
    return fail(apiError('bad_request', body.reason === 'cut_off' ? 'the request body was cut off' : 'the request body could not be read'));
  }
  const text = body.text;
  if (text.trim() === '') return fail(apiError('bad_request', 'a JSON body is required'));
  // Settings are compared and serialized recursively: a body nested deeper than the bound is
  // refused before it is parsed, never a stack overflow.
  if (scanJsonNesting(text).tooDeep) return fail(apiError('bad_request', `the body nests deeper than ${MAX_JSON_DEPTH} levels`));
  try {
    return ok({ value: JSON.parse(text) as unknown, text });
  } catch {
    return fail(apiError('bad_request', 'the body is not valid JSON'));
  }
}
