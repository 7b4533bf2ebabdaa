/**
 * How a started backend stops: for good (every lease and task host ends) or for a restart (they
 * all stay for the next backend on this home to re-adopt, docs/restarts.md). Whichever is asked
 * first wins; asking again returns the same promise.
 */
import type { Server } from 'node:http';
import type { Disposable } from '@kandev/kit';
import type { OwnedLogger } from '../base/log.js';
import type { EventsGateway } from '../events/eventsGateway.js';
import type { LspGateway } from '../lsp/gateway.js';
import type { McpService } from '../mcp/mcpService.js';
import type { HomeLock } from '../restart/homeLock.js';
import type { IdleReclaimer } from '../sessions/idleReclaimer.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { Db } from '../store/database.js';

/** What stopping reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface StopSettings {
  restartGraceMs: number;
}

export interface StoppableBackend {
  config: StopSettings;
  log: OwnedLogger;
  server: Server;
  reclaimer: IdleReclaimer;
  logRetention: Disposable;
  mcp: McpService;
  eventsGateway: EventsGateway;
  lspGateway: LspGateway;
  sessions: SessionService;
  db: Db;
  lock: HomeLock;
}

export interface BackendStoppers {
  close(): Promise<void>;
  closeForRestart(): Promise<void>;
}

export function backendStoppers(b: StoppableBackend): BackendStoppers {
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      b.log.info('backend_stopping');
      b.reclaimer.dispose();
      b.logRetention.dispose();
      b.server.close();
      // Every lease ends first (its servers are told, its streams closed), then the task hosts stop.
      await b.mcp.close();
      await b.eventsGateway.close();
      await b.lspGateway.close();
      await b.sessions.stopAll();
      b.server.closeAllConnections();
      b.db.close();
      b.lock.release();
      b.log.info('backend_stopped');
      // Written out before close resolves: whoever stops the backend may read its log next.
      await b.log.close();
    })());
  const closeForRestart = (): Promise<void> =>
    (closing ??= (async () => {
      b.log.info('backend_restart_requested', { graceMs: b.config.restartGraceMs, taskHosts: b.sessions.runningCount() });
      b.reclaimer.dispose();
      b.logRetention.dispose();
      b.server.close();
      b.db.close();
      b.lock.release();
      await b.log.close();
    })());
  return { close, closeForRestart };
}
