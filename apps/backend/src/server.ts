import type { IncomingMessage } from 'node:http';
import { systemClock, type Clock } from '@kandev/kit';
import { Router } from './api/router.js';
import type { ApiDeps } from './api/routes/deps.js';
import { addSessionRoutes } from './api/routes/sessions.js';
import { addSettingsRoutes } from './api/routes/settings.js';
import { addSystemRoutes } from './api/routes/system.js';
import { addTaskRoutes } from './api/routes/tasks.js';
import type { Logger } from './base/log.js';
import { keepLogsFor } from './base/logRetention.js';
import type { BackendConfig } from './config.js';
import type { BrokerMetrics, LeaseView } from './lsp/broker/index.js';
import { LspGateway } from './lsp/gateway.js';
import { agentLeasesOf } from './mcp/agentLeaseSummary.js';
import type { McpService } from './mcp/mcpService.js';
import { createBackendMetrics } from './metrics/backendMetrics.js';
import { acquireHomeLock, type HomeLock } from './restart/homeLock.js';
import type { AccessToken } from './security/accessToken.js';
import type { OriginPolicy } from './security/origin.js';
import { ensurePrivateDir } from './security/privateFiles.js';
import { SessionService } from './sessions/sessionService.js';
import type { TaskHostPinView } from './sessions/taskHostPins.js';
import { loadAccess } from './startup/access.js';
import { adoptPreviousBackend } from './startup/adoptPreviousBackend.js';
import { agentLeaseIdleMs, startMcpEndpoint } from './startup/mcpEndpoint.js';
import { openBackendLog } from './startup/backendLog.js';
import { startExecutors } from './startup/executors.js';
import { announceStart, createHttpServer, listen } from './startup/httpServer.js';
import { startIdleReclaim } from './startup/idleReclaim.js';
import { startLeaseBroker } from './startup/leaseBroker.js';
import { startLiveWorkspace } from './startup/liveWorkspace.js';
import { backendStoppers } from './startup/stopping.js';
import { openStore } from './startup/store.js';
import type { TaskRepository } from './store/taskRepository.js';

export { HTTP_KEEP_ALIVE_MS } from './startup/httpServer.js';

export interface RunningBackend {
  /** http://host:port, with the real port when the config asked for 0. */
  url: string;
  /** The access token (for the start link main.ts prints; never logged). */
  access: AccessToken;
  port: number;
  log: Logger;
  /** Resolves once every line logged so far is written (the log is written asynchronously). */
  flushLog(): Promise<void>;
  tasks: TaskRepository;
  sessions: SessionService;
  /** The lease broker's view: which task hosts live leases pin (idle reclaim must ask), leases, metrics. */
  leases: LeaseInspector;
  /** Stops accepting, closes LSP streams, stops every session (reaping its task host), closes the store. */
  close(): Promise<void>;
  /**
   * A restart: stops accepting and closes the store, but leaves every task host and language server
   * running for the next backend on this home to re-adopt (docs/restarts.md). The caller exits the
   * process next, which drops every socket: browsers reconnect, agentctl parks its streams.
   */
  closeForRestart(): Promise<void>;
}

export interface LeaseInspector {
  pins: TaskHostPinView;
  list(): LeaseView[];
  metrics(): BrokerMetrics;
}

export interface BackendOptions {
  /** The lease broker's clock (tests inject a ManualClock; the one-hour deadline then needs no wait). */
  clock?: Clock;
}

/** Starts the whole backend in this process; main.ts and the integration tests both use it. */
export async function startBackend(config: BackendConfig, options: BackendOptions = {}): Promise<RunningBackend> {
  // Task env, repository paths, the access token: KANDEV_HOME is for its owner's eyes only.
  ensurePrivateDir(config.home);
  // One backend per home: a second one would re-adopt and sweep the first one's task hosts.
  const lock = acquireHomeLock(config.home);
  if (!lock.ok) throw new Error(lock.error);
  try {
    return await startLocked(config, options, lock.value);
  } catch (err) {
    lock.value.release();
    throw err;
  }
}

/**
 * The start, step by step (each a module of startup/). The order matters: the broker exists before
 * the gateways that feed it, a previous backend's task hosts are adopted before anyone can connect,
 * and the MCP endpoint learns the backend's URL once it listens.
 */
async function startLocked(config: BackendConfig, options: BackendOptions, lock: HomeLock): Promise<RunningBackend> {
  const clock = options.clock ?? systemClock;
  const { log, logDir } = openBackendLog(config);
  const { access, gate } = loadAccess(config, log);
  const store = openStore(config, log);
  const executors = startExecutors(config, logDir, log);
  // Set once the MCP endpoint exists (below); a session starts only after the backend listens.
  const mcpRef: { service?: McpService } = {};
  const sessions = new SessionService(store.tasks, store.sessionRecords, executors.registry, log, (id) => mcpRef.service?.sessionEnv(id) ?? {});
  // Logs of sessions long gone go too, now and once a day: a backend is meant to be left running.
  const logRetention = keepLogsFor(logDir, config.logRetentionDays, clock, log);
  // Read at scrape time only, after the LSP gateway below exists.
  const metrics = createBackendMetrics({ runningSessions: () => sessions.runningCount(), activeLspConnections: () => lspGateway.activeConnections });
  const originPolicy: OriginPolicy = { allowedOrigins: config.allowedOrigins, bindHost: config.host };
  const authenticate = (req: IncomingMessage): boolean => gate.allows(req);
  const keepalive = executors.keepalive;

  const broker = startLeaseBroker({
    config,
    sessions,
    tasks: store.tasks,
    settings: store.settings,
    leaseStore: store.leaseStore,
    metrics,
    keepalive,
    log,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const live = startLiveWorkspace({ sessions, originPolicy, authenticate, keepalive, log });
  const lspGateway = new LspGateway({ sessions, tasks: store.tasks, relay: broker, metrics, log, originPolicy, keepalive, authenticate });
  const reclaimer = startIdleReclaim(config, sessions, broker.pins, log, clock);
  let baseUrl = '';
  const mcp = startMcpEndpoint({
    config,
    relay: broker,
    sessions,
    agentTokens: store.agentTokens,
    hub: live.hub,
    settings: store.settings,
    reclaimer,
    baseUrl: () => baseUrl,
    log,
    clock,
  });
  mcpRef.service = mcp;

  await adoptPreviousBackend({ config, sessions, leaseStore: store.leaseStore, broker, docker: executors.docker, owner: executors.owner, log });

  const router = createApiRouter({
    tasks: store.tasks,
    sessions,
    settings: store.settings,
    metrics,
    log,
    taskHostUsed: (id) => reclaimer.touch(id),
    mcpConfig: (id) => mcp.clientConfig(id),
    agentLeases: (id) => agentLeasesOf(broker.leases(), id, agentLeaseIdleMs(config)),
  });
  const server = createHttpServer({ router, config, policy: originPolicy, gate, log, mcp }, [live.gateway, lspGateway]);
  const { port, url } = await listen(server, config.port, config.host);
  baseUrl = url;
  announceStart(log, config, url, port);

  const leases: LeaseInspector = { pins: broker.pins, list: () => broker.leases(), metrics: () => broker.metrics() };
  const stoppers = backendStoppers({
    config,
    log,
    server,
    reclaimer,
    logRetention,
    mcp,
    eventsGateway: live.gateway,
    lspGateway,
    sessions,
    db: store.db,
    lock,
  });
  return { url, access, port, log, flushLog: () => log.flush(), tasks: store.tasks, sessions, leases, ...stoppers };
}

/** The whole HTTP API; the access tests enumerate its routes to prove each one needs the token. */
export function createApiRouter(deps: ApiDeps): Router {
  const router = new Router();
  addSystemRoutes(router, deps);
  addTaskRoutes(router, deps);
  addSessionRoutes(router, deps);
  addSettingsRoutes(router, deps);
  return router;
}
