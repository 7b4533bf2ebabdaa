/**
 * Startup step: the HTTP server. Every request passes, in order: Host (DNS rebinding) -> access
 * token (except /api/health and the sign-in link) -> Origin for state changes -> JSON content type
 * for API writes -> the route. WebSocket upgrades go to the first gateway that takes them.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, API_ROUTES, MCP_PATH, METRICS_PATH } from '@kandev/protocol';
import { errorOf, writeReply } from '../api/http.js';
import type { Router } from '../api/router.js';
import { serveStatic } from '../api/staticFiles.js';
import type { Logger } from '../base/log.js';
import { messageOf } from '../base/result.js';
import type { McpService } from '../mcp/mcpService.js';
import type { AccessGate } from '../security/accessGate.js';
import { fileBytesContentType, jsonContentTypeAllowed } from '../security/contentType.js';
import { hostAllowed, isLoopbackName, originAllowed, type OriginPolicy } from '../security/origin.js';
import { signIn, writeUnauthenticatedStatic } from '../security/signIn.js';

/** How long the backend keeps an idle HTTP connection open for the next request. */
/** What the HTTP server reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface HttpSettings {
  home: string;
  host: string;
  /** The built web app, served to signed-in browsers. */
  webDir: string;
}

export const HTTP_KEEP_ALIVE_MS = 30_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RequestContext {
  router: Router;
  config: HttpSettings;
  policy: OriginPolicy;
  gate: AccessGate;
  log: Logger;
  mcp: McpService;
}

/** A WebSocket endpoint: true when it took the upgrade (its path), false to let the next one try. */
export interface UpgradeHandler {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
}

export function createHttpServer(ctx: RequestContext, upgrades: readonly UpgradeHandler[]): Server {
  const server = createServer((req, res) => {
    void handleRequest(req, res, ctx);
  });
  // An idle kept-alive connection stays open this long (Node's default is 5 s). A client reuses
  // one until just before the `Keep-Alive: timeout` it is told, so with 5 s a client whose next
  // request came after a few busy seconds (a 50 MiB save's second attempt on a loaded machine)
  // sent it on a socket the backend was closing that moment, and got ECONNRESET.
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_MS;
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined);
    if (!upgrades.some((endpoint) => endpoint.handleUpgrade(req, socket, head))) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  return server;
}

/** Listens and resolves with the real port (the config may ask for 0) and the backend's URL. */
export function listen(server: Server, port: number, host: string): Promise<{ port: number; url: string }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const bound = (server.address() as AddressInfo).port;
      resolve({ port: bound, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}` });
    });
  });
}

/** The start's log lines; anyone who can reach a non-loopback port can try, so that is said loudly, every start. */
export function announceStart(log: Logger, config: HttpSettings, url: string, port: number): void {
  log.info('backend_started', { url, home: config.home });
  if (!isLoopbackName(config.host)) log.warn('backend_exposed', { host: config.host, port });
}

async function handleRequest(req: IncomingMessage, res: ServerResponse, ctx: RequestContext): Promise<void> {
  const { router, config, policy, gate, log } = ctx;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const isApi = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`) || url.pathname === METRICS_PATH;
  if (!hostAllowed(req.headers.host, policy)) {
    log.warn('request_refused', { reason: 'host_not_allowed', method: req.method });
    writeReply(res, errorOf('forbidden', 'this host name is not allowed'));
    return;
  }
  // The agents' endpoint takes an agent token only (its own check, docs/agents.md), never the
  // access token; a browser page of another site may not drive it either.
  if (url.pathname === MCP_PATH) {
    if (req.headers.origin !== undefined && !originAllowed(req.headers.origin, req.headers.host, policy)) {
      log.warn('request_refused', { reason: 'origin_not_allowed', method: req.method });
      writeReply(res, errorOf('forbidden', 'this origin may not use the MCP endpoint'));
      return;
    }
    await ctx.mcp.handle(req, res);
    return;
  }
  const isHealth = url.pathname === API_ROUTES.health;
  if (!isApi && signIn(req, res, url, gate, log)) return;
  if (!isHealth && !gate.allows(req)) {
    log.warn('request_refused', { reason: 'unauthenticated', method: req.method, api: isApi });
    if (isApi) {
      res.setHeader('www-authenticate', 'Bearer');
      writeReply(res, errorOf('unauthorized', 'an access token is required: the cookie of the start link or Authorization: Bearer'));
    } else {
      writeUnauthenticatedStatic(req, res, url);
    }
    return;
  }
  if (!isApi) {
    serveStatic(config.webDir, req, res, url.pathname);
    return;
  }
  // State changes from another site's page are refused, also with a valid token; reads need no
  // check (no CORS headers are ever sent, so another origin cannot read the answers).
  const changesState = !SAFE_METHODS.has(req.method ?? 'GET');
  if (changesState && !originAllowed(req.headers.origin, req.headers.host, policy)) {
    log.warn('request_refused', { reason: 'origin_not_allowed', method: req.method });
    writeReply(res, errorOf('forbidden', 'this origin may not change anything here'));
    return;
  }
  const match = router.match(req.method ?? 'GET', url.pathname);
  const bytesAllowed = match.kind === 'found' && match.acceptsBytes && fileBytesContentType(req);
  if (changesState && !jsonContentTypeAllowed(req) && !bytesAllowed) {
    log.warn('request_refused', { reason: 'content_type_not_json', method: req.method });
    writeReply(res, errorOf('unsupported_media_type', 'send the body as Content-Type: application/json'));
    return;
  }
  if (match.kind === 'not_found') {
    writeReply(res, errorOf('not_found', `no such endpoint: ${req.method} ${url.pathname}`));
    return;
  }
  if (match.kind === 'method_not_allowed') {
    res.setHeader('allow', match.allow.join(', '));
    writeReply(res, { status: 405, json: { error: { code: 'bad_request', message: `use ${match.allow.join(' or ')}` } } });
    return;
  }
  try {
    writeReply(res, await match.handler({ req, url, params: match.params }));
  } catch (err) {
    log.error('request_failed', { method: req.method, path: url.pathname, detail: messageOf(err) });
    if (!res.headersSent) writeReply(res, errorOf('internal', 'internal error'));
    else res.destroy();
  }
}
