import type { IncomingMessage, ServerResponse } from 'node:http';
import { ACCESS_TOKEN_PARAM } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import { accessCookie, type AccessGate } from './accessGate.js';
import { writeAccessPage } from './accessPage.js';

/**
 * The start link (`/?token=...`): a page load that carries the token gets the HttpOnly cookie and a
 * redirect to the same address without it, so the token leaves the address bar and history. The
 * fragment (`#/sessions/...`, the app's routes) survives: browsers keep it across a redirect whose
 * Location has none. Returns false when the request is not a sign-in link.
 */
export function signIn(req: IncomingMessage, res: ServerResponse, url: URL, gate: AccessGate, log: Logger): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.searchParams.has(ACCESS_TOKEN_PARAM)) return false;
  const offered = url.searchParams.get(ACCESS_TOKEN_PARAM) ?? undefined;
  if (!gate.matches(offered)) {
    log.warn('request_refused', { reason: 'sign_in_link_invalid', method: req.method });
    writeAccessPage(req, res, url, originOf(req));
    return true;
  }
  const rest = new URLSearchParams(url.searchParams);
  rest.delete(ACCESS_TOKEN_PARAM);
  const query = rest.toString();
  res.writeHead(303, {
    location: safeLocalPath(url.pathname) + (query ? `?${query}` : ''),
    'set-cookie': accessCookie(offered as string),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-length': 0,
  });
  res.end();
  return true;
}

/** Without the cookie: a page load gets the access page, anything else (assets, scripts) a bare 401. */
export function writeUnauthenticatedStatic(req: IncomingMessage, res: ServerResponse, url: URL): void {
  if ((req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/assets/')) {
    writeAccessPage(req, res, url, originOf(req));
    return;
  }
  res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end('Sign in with the Kandev start link first.\n');
}

/** The page's own origin for the example link (the Host header already passed hostAllowed). */
function originOf(req: IncomingMessage): string {
  return `http://${req.headers.host ?? '127.0.0.1'}`;
}

/** A path that a browser cannot read as another host (`//evil.example`, `/\evil.example`). */
function safeLocalPath(pathname: string): string {
  return /^[/\\]{2}/.test(pathname) ? '/' : pathname;
}
