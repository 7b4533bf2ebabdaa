import type { IncomingMessage } from 'node:http';
import { FILE_BYTES_CONTENT_TYPE } from '@kandev/protocol';

/**
 * JSON APIs take JSON only. A cross-site form or `fetch` without preflight can send `text/plain`
 * (or form) bodies; refusing every other media type closes that door even where an Origin check
 * could be bypassed. A request without a body (e.g. POST .../stop) needs no content type.
 */
export function jsonContentTypeAllowed(req: IncomingMessage): boolean {
  const header = req.headers['content-type'];
  if (header === undefined) return !hasBody(req);
  const mediaType = header.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * A save's raw bytes (FILE_BYTES_CONTENT_TYPE), for the routes that take them. Like JSON, it is not
 * a type a cross-site form or a fetch without preflight can send.
 */
export function fileBytesContentType(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === FILE_BYTES_CONTENT_TYPE;
}
