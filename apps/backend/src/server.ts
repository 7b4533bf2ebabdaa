import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
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
import { LocalPcExecutor } from './executors/localPc.js';
import { ExecutorRegistry } from './executors/registry.js';
import { createLogger, type Logger, type LogSink } from './log.js';
import type { BrokerMetrics, LeaseView } from './lsp/broker/index.js';
import { BrokerRelay } from './lsp/brokerRelay.js';
import { systemClock, type Clock } from './lsp/clock.js';
import { LspGateway } from './lsp/gateway.js';
import { taskHostStreamOpener } from './lsp/taskHostStreams.js';
import type { TaskHostPinView } from './lsp/taskHostPins.js';
import { createBackendMetrics } from './metrics/backendMetrics.js';
import { registerLeaseMetrics } from './metrics/leaseMetrics.js';
import { messageOf } from './result.js';
import { hostAllowed, originAllowed, type OriginPolicy } from './security/origin.js';
import { IdleReclaimer } from './sessions/idleReclaimer.js';
import { SessionService } from './sessions/sessionService.js';
import { SettingsService } from './settings/settingsService.js';
import { openDatabase } from './store/database.js';
import { SessionRepository } from './store/sessionRepository.js';
import { SettingsRepository } from './store/settingsRepository.js';
import { TaskRepository } from './store/taskRepository.js';

export interface RunningBackend {
  /** http://host:port, with the real port when the config asked for 0. */
  url: string;
  port: number;
  log: Logger;
  tasks: TaskRepository;
  sessions: SessionService;
  /** The lease broker's view: which task hosts live leases pin (idle reclaim must ask), leases, metrics. */
  leases: LeaseInspector;
  /** Stops accepting, closes LSP streams, stops every session (reaping its task host), closes the store. */
  close(): Promise<void>;
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
  const logDir = join(config.home, 'logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, 'backend.log');
  const sinks: LogSink[] = [(line) => appendFileSync(logFile, line)];
  if (config.logToStderr) sinks.push((line) => process.stderr.write(line));
  const log = createLogger(sinks);

  const opened = openDatabase(join(config.home, 'kandev.db'));
  if (!opened.ok) throw new Error(opened.error);
  const { db, report } = opened.value;
  if (report.applied.length > 0) log.info('store_migrated', { applied: report.applied.join(','), version: report.version });

  const tasks = new TaskRepository(db);
  const settings = new SettingsService(new SettingsRepository(db), log);
  const executors = new ExecutorRegistry([
    new LocalPcExecutor({
      agentctlCommand: config.agentctlCommand,
      startTimeoutMs: config.agentctlStartTimeoutMs,
      stopGraceMs: config.agentctlStopGraceMs,
      logDir,
      cwd: process.cwd(),
      backendEnv: process.env,
      log,
    }),
    LocalDockerExecutor.fromConfig(config, { logDir, log }),
  ]);
  const sessions = new SessionService(tasks, new SessionRepository(db), executors, log);
  sessions.stopLeftovers(config.agentctlStopGraceMs);

  const metrics = createBackendMetrics({
    runningSessions: () => sessions.runningCount(),
    // Read at scrape time only, after the gateway below exists.
    activeLspConnections: () => gateway.activeConnections,
  });
  const originPolicy: OriginPolicy = { allowedOrigins: config.allowedOrigins, bindHost: config.host };
  // One lease broker per backend. It ends a session's leases when the session ends, and tells
  // live servers about saved settings (S23, C12).
  const relay = new BrokerRelay({
    maxLeases: config.lspMaxConnections,
    openUpstream: taskHostStreamOpener(sessions),
    settings: () => settings.get(),
    workspaceTrusted: (sessionId) => {
      const session = sessions.get(sessionId);
      return session !== undefined && tasks.get(session.taskId)?.trustWorkspaceTools === true;
    },
    log,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  sessions.onEnded((sessionId) => relay.sessionStopped(sessionId));
  settings.onChange((next) => relay.settingsChanged(next));
  registerLeaseMetrics(metrics.registry, () => relay.metrics());
  const gateway = new LspGateway({ sessions, tasks, relay, metrics, log, originPolicy });
  const leases: LeaseInspector = { pins: relay.pins, list: () => relay.leases(), metrics: () => relay.metrics() };
  // Idle task hosts are stopped unless a live lease pins them (DESIGN section 5, C07).
  const reclaimer = new IdleReclaimer({
    idleMs: config.taskHostIdleMs,
    clock: options.clock ?? systemClock,
    pins: relay.pins,
    isRunning: (id) => sessions.liveHost(id) !== undefined,
    stop: (id) => sessions.stop(id),
    log,
  });
  sessions.onRunning((id) => reclaimer.touch(id));
  sessions.onEnded((id) => reclaimer.ended(id));

  const deps: ApiDeps = { tasks, sessions, settings, metrics, log, taskHostUsed: (id) => reclaimer.touch(id) };
  const router = new Router();
  addSystemRoutes(router, deps);
  addTaskRoutes(router, deps);
  addSessionRoutes(router, deps);
  addSettingsRoutes(router, deps);

  const server = createServer((req, res) => {
    void handleRequest(req, res, router, config, originPolicy, log);
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => undefined);
    if (!gateway.handleUpgrade(req, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });

  const port = await listen(server, config.port, config.host);
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log.info('backend_started', { url, home: config.home });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      log.info('backend_stopping');
      reclaimer.dispose();
      server.close();
      // Every lease ends first (its servers are told, its streams closed), then the task hosts stop.
      await gateway.close();
      await sessions.stopAll();
      server.closeAllConnections();
      db.close();
      log.info('backend_stopped');
    })());

  return { url, port, log, tasks, sessions, leases, close };
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

async function handleRequest(req: IncomingMessage, res: ServerResponse, router: Router, config: BackendConfig, policy: OriginPolicy, log: Logger): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/') || url.pathname === '/metrics';
  if (!hostAllowed(req.headers.host, policy)) {
    log.warn('request_refused', { reason: 'host_not_allowed', method: req.method });
    writeReply(res, errorOf('forbidden', 'this host name is not allowed'));
    return;
  }
  if (!isApi) {
    serveStatic(config.webDir, req, res, url.pathname);
    return;
  }
  // State changes from another site's page are refused; reads need no check (no CORS headers are
  // ever sent, so another origin cannot read the answers).
  if (!SAFE_METHODS.has(req.method ?? 'GET') && !originAllowed(req.headers.origin, req.headers.host, policy)) {
    log.warn('request_refused', { reason: 'origin_not_allowed', method: req.method });
    writeReply(res, errorOf('forbidden', 'this origin may not change anything here'));
    return;
  }
  const match = router.match(req.method ?? 'GET', url.pathname);
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
