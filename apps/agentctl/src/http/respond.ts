import type { ApiErrorCode } from '@kandev/protocol';
import type { ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

/** The API's error shape: `{"error":{"code","message"}}`, plus extra fields (409's currentVersion). */
export function sendError(res: ServerResponse, status: number, code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}): void {
  sendJson(res, status, { error: { code, message }, ...extra });
}
