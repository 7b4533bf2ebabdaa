/**
 * The page's edge of the live workspace: `GET /api/sessions/:id/events` upgraded to a WebSocket,
 * with the access rules of every route (Host and Origin checked, 403; the access token by cookie
 * or bearer, 401; an unknown session, 404), refused at the HTTP upgrade. A session whose task host
 * is not running is accepted and closed with 4002, as an LSP stream would be.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_KEEPALIVE, FrameSocket, type KeepaliveTiming, refuseUpgrade } from '@kandev/node-transport';
import { CloseCode } from '@kandev/protocol';
import { WebSocketServer } from 'ws';
import type { Logger } from '../base/log.js';
import { hostAllowed, originAllowed, type OriginPolicy } from '../security/origin.js';
import { parseEventsRoute } from './eventsRoute.js';
import type { SessionEventsHub } from './sessionEvents.js';

/** A page's `in_view` control (at most 500 paths of each kind) fits well within this. */
const MAX_PAGE_FRAME_BYTES = 1024 * 1024;

export interface EventsGatewayDeps {
  hub: SessionEventsHub;
  originPolicy: OriginPolicy;
  authenticate: (req: IncomingMessage) => boolean;
  sessionExists: (sessionId: string) => boolean;
  sessionRunning: (sessionId: string) => boolean;
  log: Logger;
  keepalive?: KeepaliveTiming;
}

export class EventsGateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAGE_FRAME_BYTES, perMessageDeflate: false });

  constructor(private readonly deps: EventsGatewayDeps) {}

  /** Handles an HTTP upgrade; returns false when the path is not an events stream. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const sessionId = parseEventsRoute(req.url);
    if (sessionId === undefined) return false;
    const { originPolicy, log } = this.deps;
    if (!hostAllowed(req.headers.host, originPolicy) || !originAllowed(req.headers.origin, req.headers.host, originPolicy)) {
      log.warn('request_refused', { reason: 'origin_not_allowed', path: '/events' });
      refuseUpgrade(socket, 403, 'forbidden', 'this origin may not open event streams');
      return true;
    }
    if (!this.deps.authenticate(req)) {
      log.warn('request_refused', { reason: 'unauthenticated', path: '/events' });
      refuseUpgrade(socket, 401, 'unauthorized', 'an access token is required');
      return true;
    }
    if (!this.deps.sessionExists(sessionId)) {
      refuseUpgrade(socket, 404, 'not_found', 'no such session');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const page = new FrameSocket(ws, { keepalive: this.deps.keepalive ?? DEFAULT_KEEPALIVE });
      if (!this.deps.sessionRunning(sessionId)) {
        page.close(CloseCode.Unavailable);
        return;
      }
      this.deps.hub.attach(sessionId, page);
    });
    return true;
  }

  close(): Promise<void> {
    this.deps.hub.shutdown();
    return new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
