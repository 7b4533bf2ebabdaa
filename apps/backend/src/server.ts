import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { API_PREFIX, API_ROUTES, MCP_PATH, METRICS_PATH } from '@kandev/protocol';
import { AGENT_LEASE_IDLE_MS } from './mcp/agentWorkspace.js';
import { agentLeasesOf } from './mcp/agentLeaseSummary.js';
import { McpService } from './mcp/mcpService.js';
import { AgentTokenRepository } from './store/agentTokenRepository.js';
import { errorOf, writeReply } from './api/http.js';
import { Router } from './api/router.js';
import type { ApiDeps } from './api/routes/deps.js';
import { addSessionRoutes } from './api/routes/sessions.js';
import { addSettingsRoutes } from './api/routes/settings.js';
import { addSystemRoutes } from './api/routes/system.js';
import { addTaskRoutes } from './api/routes/tasks.js';
import { serveStatic } from './api/staticFiles.js';
import type { BackendConfig } from './config.js';
import { LocalDockerExecutor } from './executors/localDocker.js';
import { LocalPcExecutor, sweepOrphanedTrees } from './executors/localPc.js';
import { acquireHomeLock, type HomeLock } from './restart/homeLock.js';
import { readoptLeases } from './restart/readoption.js';
import { LeaseRepository } from './store/leaseRepository.js';
import { ownerTag } from './executors/taskHostMarker.js';
import { ExecutorRegistry } from './executors/registry.js';
import { createLogger, type Logger } from './base/log.js';
import type { BrokerMetrics, LeaseView } from './lsp/broker/index.js';
import { BrokerRuntime } from './lsp/brokerRuntime.js';
import { pendingSystemClockTimers, systemClock, type Clock } from '@kandev/kit';
import { keepLogsFor } from './base/logRetention.js';
import { LspGateway } from './lsp/gateway.js';
import { EventsGateway } from './events/eventsGateway.js';
import { eventsUpstreamOpener } from './events/eventsUpstream.js';
import { SessionEventsHub } from './events/sessionEvents.js';
import { taskHostStreamOpener } from './lsp/taskHostStreams.js';
import type { TaskHostPinView } from './sessions/taskHostPins.js';
import { createBackendMetrics } from './metrics/backendMetrics.js';
import { registerLeaseMetrics } from './metrics/leaseMetrics.js';
import { registerProcessMetrics } from './metrics/processMetrics.js';
import { messageOf } from './base/result.js';
import { AccessGate } from './security/accessGate.js';
import { loadAccessToken, type AccessToken } from './security/accessToken.js';
import { fileBytesContentType, jsonContentTypeAllowed } from './security/contentType.js';
import { hostAllowed, isLoopbackName, originAllowed, type OriginPolicy } from './security/origin.js';
import { ensurePrivateDir, ensurePrivateFile, tightenIfPresent } from './security/privateFiles.js';
import { signIn, writeUnauthenticatedStatic } from './security/signIn.js';
import { IdleReclaimer } from './sessions/idleReclaimer.js';
import { SessionService } from './sessions/sessionService.js';
import { SettingsService } from './settings/settingsService.js';
import { openDatabase } from './store/database.js';
import { SessionRepository } from './store/sessionRepository.js';
import { SettingsRepository } from './store/settingsRepository.js';
import { TaskRepository } from './store/taskRepository.js';

/** How long the backend keeps an idle HTTP connection open for the next request. */
export const HTTP_KEEP_ALIVE_MS = 30_000;

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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

async function startLocked(config: BackendConfig, options: BackendOptions, lock: HomeLock): Promise<RunningBackend> {
  const logDir = join(config.home, 'logs');
  ensurePrivateDir(logDir);
  const logFile = join(logDir, 'backend.log');
  ensurePrivateFile(logFile);
  const log = createLogger({ targets: [{ file: logFile, maxBytes: config.logMaxBytes }, ...(config.logToStderr ? [{ stderr: true as const }] : [])] });

  const loadedToken = loadAccessToken(config.home, config.accessToken);
  if (!loadedToken.ok) throw new Error(loadedToken.error);
  const access = loadedToken.value;
  const gate = new AccessGate(access.value);
  log.info('access_ready', { source: access.source, created: access.created });
  // A token file this backend did not write is never trusted: say why a fresh token took its place
  // (every browser must sign in again with the new start link).
  if (access.replaced && access.replaced !== 'missing') log.warn('access_token_replaced', { file: access.file, reason: access.replaced });

  const dbPath = join(config.home, 'kandev.db');
  // SQLite gives its -wal and -shm files the database file's mode: create that one 0600 first.
  ensurePrivateFile(dbPath);
  const opened = openDatabase(dbPath);
  if (!opened.ok) throw new Error(opened.error);
  for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${dbPath}${suffix}`, 0o600);
  const { db, report } = opened.value;
  if (report.applied.length > 0) log.info('store_migrated', { applied: report.applied.join(','), version: report.version });

  const tasks = new TaskRepository(db);
  const settings = new SettingsService(new SettingsRepository(db), log);
  const owner = ownerTag(config.home);
  const keepalive = { intervalMs: config.lspPingIntervalMs, maxMisses: config.lspPingMisses };
  const dockerExecutor = LocalDockerExecutor.fromConfig(config, { logDir, logMaxBytes: config.logMaxBytes, log });
  const executors = new ExecutorRegistry([
    new LocalPcExecutor({
      agentctlCommand: config.agentctlCommand,
      startTimeoutMs: config.agentctlStartTimeoutMs,
      stopGraceMs: config.agentctlStopGraceMs,
      logDir,
      logMaxBytes: config.logMaxBytes,
      cwd: process.cwd(),
      backendEnv: process.env,
      owner,
      restartGraceMs: config.restartGraceMs,
      keepalive,
      log,
    }),
    dockerExecutor,
  ]);
  const agentTokens = new AgentTokenRepository(db);
  // Set once the MCP endpoint exists (below); a session starts only after the backend listens.
  const mcpRef: { service?: McpService } = {};
  const sessions = new SessionService(tasks, new SessionRepository(db), executors, log, (sessionId) => mcpRef.service?.sessionEnv(sessionId) ?? {});
  const leaseStore = new LeaseRepository(db);
  // Logs of sessions long gone go too, now and once a day: a backend is meant to be left running.
  const logRetention = keepLogsFor(logDir, config.logRetentionDays, options.clock ?? systemClock, log);

  const metrics = createBackendMetrics({
    runningSessions: () => sessions.runningCount(),
    // Read at scrape time only, after the gateway below exists.
    activeLspConnections: () => gateway.activeConnections,
  });
  const originPolicy: OriginPolicy = { allowedOrigins: config.allowedOrigins, bindHost: config.host };
  // One lease broker per backend. It ends a session's leases when the session ends, and tells
  // live servers about saved settings (S23, C12).
  const runtime = new BrokerRuntime({
    maxLeases: config.lspMaxConnections,
    restartLimit: config.lspRestartLimit,
    // agentctl is pinged like a browser; one that stops answering (hung, SIGSTOP) is dropped, so
    // its leases end with 4009 and their slots free up instead of hanging forever.
    openUpstream: taskHostStreamOpener(sessions, {
      keepalive,
      onDead: () => log.warn('lsp_peer_unresponsive', { peer: 'task_host' }),
      onRelayed: metrics.relayed.to_browser,
    }),
    settings: () => settings.get(),
    workspaceTrusted: (sessionId) => {
      const session = sessions.get(sessionId);
      return session !== undefined && tasks.get(session.taskId)?.trustWorkspaceTools === true;
    },
    log,
    measured: ({ measure, ms, ok }) => (measure === 'install' ? metrics.installFinished(ms, ok) : metrics.serverStarted(ms)),
    // Resumable lease state, for the backend that follows this one after a restart.
    ...(config.restartGraceMs > 0 ? { leaseStore } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  sessions.onEnded((sessionId) => runtime.sessionStopped(sessionId));
  settings.onChange(({ next }) => runtime.settingsChanged(next));
  registerLeaseMetrics(metrics.registry, () => runtime.metrics());
  registerProcessMetrics(metrics.registry, { activeResources: () => process.getActiveResourcesInfo(), clockTimers: pendingSystemClockTimers });
  // The live workspace: one agentctl events stream per session, fanned out to its pages. It never
  // touches the reclaimer, so a page that only listens does not keep a task host running.
  const eventsHub = new SessionEventsHub(eventsUpstreamOpener({ liveEndpoint: (id) => sessions.liveHost(id)?.endpoint, keepalive }), log);
  sessions.onEnded((id) => eventsHub.sessionEnded(id));
  const eventsGateway = new EventsGateway({
    hub: eventsHub,
    originPolicy,
    authenticate: (req) => gate.allows(req),
    sessionExists: (id) => sessions.get(id) !== undefined,
    sessionRunning: (id) => sessions.liveHost(id) !== undefined,
    log,
    keepalive,
  });
  const gateway = new LspGateway({ sessions, tasks, relay: runtime, metrics, log, originPolicy, keepalive, authenticate: (req) => gate.allows(req) });
  const leases: LeaseInspector = { pins: runtime.pins, list: () => runtime.leases(), metrics: () => runtime.metrics() };
  // Idle task hosts are stopped unless a live lease pins them (docs/architecture.md section 5, C07).
  const reclaimer = new IdleReclaimer({
    idleMs: config.taskHostIdleMs,
    clock: options.clock ?? systemClock,
    pins: runtime.pins,
    isRunning: (id) => sessions.liveHost(id) !== undefined,
    stop: (id) => sessions.stop(id),
    log,
  });
  sessions.onRunning((id) => reclaimer.touch(id));
  sessions.onEnded((id) => reclaimer.ended(id));
  let baseUrl = '';
  const mcp = new McpService({
    relay: runtime,
    sessions,
    tokens: agentTokens,
    hub: eventsHub,
    settings: () => settings.get(),
    clock: options.clock ?? systemClock,
    idleMs: config.mcpLeaseIdleMs ?? AGENT_LEASE_IDLE_MS,
    log,
    used: (id) => reclaimer.touch(id),
    baseUrl: () => baseUrl,
    version: '0.1.0',
  });
  mcpRef.service = mcp;
  sessions.onEnded((id) => mcp.sessionEnded(id));

  // Before listening: the task hosts a previous backend of this home left running are re-adopted,
  // their leases rebuilt detached, so a browser's first reconnect finds its lease warm.
  const adopted = await sessions.recover(config.agentctlStopGraceMs, config.restartGraceMs > 0);
  const readopted = await readoptLeases(adopted, leaseStore, runtime, log);
  if (adopted.length > 0) log.info('lease_adopted', { hosts: adopted.length, ...readopted });
  // A previous backend with this KANDEV_HOME that was SIGKILLed together with its agentctl left
  // their language-server trees running: nothing else would ever end them. Re-adopted ones stay.
  const adoptedMarkers = new Set(adopted.flatMap(({ host }) => (host.record?.marker ? [host.record.marker] : [])));
  await sweepOrphanedTrees(owner, log, adoptedMarkers);
  void dockerExecutor.removeLeftovers(new Set(adopted.flatMap(({ host }) => (host.record?.containerId ? [host.record.containerId] : []))));

  const router = createApiRouter({
    tasks,
    sessions,
    settings,
    metrics,
    log,
    taskHostUsed: (id) => reclaimer.touch(id),
    mcpConfig: (id) => mcp.clientConfig(id),
    agentLeases: (id) => agentLeasesOf(runtime.leases(), id, config.mcpLeaseIdleMs ?? AGENT_LEASE_IDLE_MS),
  });

  const server = createServer((req, res) => {
    void handleRequest(req, res, { router, config, policy: originPolicy, gate, log, mcp });
  });
  // An idle kept-alive connection stays open this long (Node's default is 5 s). A client reuses
  // one until just before the `Keep-Alive: timeout` it is told, so with 5 s a client whose next
  // request came after a few busy seconds (a 50 MiB save's second attempt on a loaded machine)
  // sent it on a socket the backend was closing that moment, and got ECONNRESET.
  server.keepAliveTimeout = HTTP_KEEP_ALIVE_MS;
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined);
    if (!eventsGateway.handleUpgrade(req, socket, head) && !gateway.handleUpgrade(req, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });

  const port = await listen(server, config.port, config.host);
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  baseUrl = url;
  log.info('backend_started', { url, home: config.home });
  // Anyone who can reach the port can try: say so, loudly, every start (the token still guards it).
  if (!isLoopbackName(config.host)) log.warn('backend_exposed', { host: config.host, port });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      log.info('backend_stopping');
      reclaimer.dispose();
      logRetention.dispose();
      server.close();
      // Every lease ends first (its servers are told, its streams closed), then the task hosts stop.
      await mcp.close();
      await eventsGateway.close();
      await gateway.close();
      await sessions.stopAll();
      server.closeAllConnections();
      db.close();
      lock.release();
      log.info('backend_stopped');
      // Written out before close resolves: whoever stops the backend may read its log next.
      await log.close();
    })());
  const closeForRestart = (): Promise<void> =>
    (closing ??= (async () => {
      log.info('backend_restart_requested', { graceMs: config.restartGraceMs, taskHosts: sessions.runningCount() });
      reclaimer.dispose();
      logRetention.dispose();
      server.close();
      db.close();
      lock.release();
      await log.close();
    })());

  return { url, access, port, log, flushLog: () => log.flush(), tasks, sessions, leases, close, closeForRestart };
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

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

interface RequestContext {
  router: Router;
  config: BackendConfig;
  policy: OriginPolicy;
  gate: AccessGate;
  log: Logger;
  mcp: McpService;
}

/**
 * Every request passes, in order: Host (DNS rebinding) -> access token (except /api/health and the
 * sign-in link) -> Origin for state changes -> JSON content type for API writes -> the route.
 */
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
