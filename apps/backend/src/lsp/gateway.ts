import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_KEEPALIVE, type KeepaliveTiming, refuseUpgrade } from '@kandev/node-transport';
import { CloseCode, LSP_MAX_BODY_BYTES, LSP_SOCKET_PATH } from '@kandev/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../base/log.js';
import { closeCodeLabel, type BackendMetrics } from '../metrics/backendMetrics.js';
import { hostAllowed, originAllowed, type OriginPolicy } from '../security/origin.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { TaskRepository } from '../store/taskRepository.js';
import { checkAdmission } from './admission.js';
import { BrowserSocket } from './browserSocket.js';
import { parseLspRoute, type LspRoute } from './lspRoute.js';
import type { LspRelay } from './relay.js';

export interface GatewayDeps {
  sessions: SessionService;
  tasks: TaskRepository;
  relay: LspRelay;
  metrics: BackendMetrics;
  log: Logger;
  originPolicy: OriginPolicy;
  /** Whether the upgrade carries the access token (cookie or bearer). */
  authenticate: (req: IncomingMessage) => boolean;
  writeDeadlineMs?: number;
  /** Browser pings (KANDEV_LSP_PING_INTERVAL_MS, KANDEV_LSP_PING_MISSES). */
  keepalive?: KeepaliveTiming;
}

/**
 * The browser edge of LSP: `/lsp/:sessionId?language=L&lease=ID`. A cross-site Origin (or a
 * rebinding Host) is refused at the HTTP upgrade with 403, and a caller without the access token
 * with 401: neither is an admission failure, and no socket is opened for them. Everything else is accepted as a WebSocket first and refused with a close code, so the
 * browser can show localized copy for it.
 */
export class LspGateway {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: LSP_MAX_BODY_BYTES, perMessageDeflate: false });
  private readonly open = new Set<BrowserSocket>();

  constructor(private readonly deps: GatewayDeps) {}

  get activeConnections(): number {
    return this.open.size;
  }

  /** Handles an HTTP upgrade; returns false when the path is not an LSP stream. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const route = parseLspRoute(req.url);
    if (!route) return false;
    const { originPolicy, log } = this.deps;
    if (!hostAllowed(req.headers.host, originPolicy) || !originAllowed(req.headers.origin, req.headers.host, originPolicy)) {
      log.warn('request_refused', { reason: 'origin_not_allowed', path: LSP_SOCKET_PATH });
      refuseUpgrade(socket, 403, 'forbidden', 'this origin may not open LSP streams');
      return true;
    }
    if (!this.deps.authenticate(req)) {
      log.warn('request_refused', { reason: 'unauthenticated', path: LSP_SOCKET_PATH });
      refuseUpgrade(socket, 401, 'unauthorized', 'an access token is required');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, route));
    return true;
  }

  private accept(ws: WebSocket, route: LspRoute): void {
    const { sessions, tasks, relay, metrics, log } = this.deps;
    // A browser that leaves pings unanswered (a frozen tab, a dead network) is dropped: its close
    // detaches the lease, which keeps its server for a reattach.
    const browser = new BrowserSocket(ws, {
      ...(this.deps.writeDeadlineMs !== undefined ? { writeDeadlineMs: this.deps.writeDeadlineMs } : {}),
      keepalive: this.deps.keepalive ?? DEFAULT_KEEPALIVE,
      onRefused: (kind) => log.warn('lsp_frame_refused', { reason: 'json_too_deep', from: 'browser', kind }),
      onRelayed: metrics.relayed.to_server,
    });
    browser.onDead(() => log.info('lsp_peer_unresponsive', { peer: 'browser' }));
    this.open.add(browser);
    metrics.lspOpened.inc();
    browser.onClose((code) => {
      this.open.delete(browser);
      metrics.lspClosed.inc({ code: closeCodeLabel(code) });
      log.info('lsp_closed', { sessionId: route.sessionId, code });
    });
    const admission = checkAdmission(route, sessions, tasks);
    if (!admission.ok) {
      log.info('lsp_refused', { sessionId: route.sessionId, code: admission.code, reason: admission.reason });
      browser.close(admission.code, admission.reason);
      return;
    }
    log.info('lsp_opened', { sessionId: admission.sessionId, language: admission.language });
    // The lease broker decides the rest: reattach or a new lease under capacity (4005), and only
    // then the session's task host (4002 when unreachable).
    relay.attach(browser, { sessionId: admission.sessionId, language: admission.language, leaseHint: admission.leaseHint });
  }

  /** Backend shutdown: the relay ends its leases, then any socket still open goes away with 1001. */
  async close(): Promise<void> {
    await this.deps.relay.shutdown();
    for (const browser of this.open) browser.close(CloseCode.GoingAway);
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}
