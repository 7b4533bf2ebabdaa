/**
 * Startup step: one lease broker per backend (docs/architecture.md section 4). It opens task-host
 * streams through the sessions, ends a session's leases when the session ends, tells live servers
 * about saved settings (S23, C12), and feeds /metrics.
 */
import type { KeepaliveTiming } from '@kandev/node-transport';
import { pendingSystemClockTimers, type Clock } from '@kandev/kit';
import type { Logger } from '../base/log.js';
import { BrokerRuntime } from '../lsp/brokerRuntime.js';
import { taskHostStreamOpener } from '../lsp/taskHostStreams.js';
import type { BackendMetrics } from '../metrics/backendMetrics.js';
import { registerLeaseMetrics } from '../metrics/leaseMetrics.js';
import { registerProcessMetrics } from '../metrics/processMetrics.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { SettingsService } from '../settings/settingsService.js';
import type { LeaseRepository } from '../store/leaseRepository.js';
import type { TaskRepository } from '../store/taskRepository.js';

/** What the broker step reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface LeaseBrokerSettings {
  lspMaxConnections: number;
  lspRestartLimit: number;
  /** How long a browser request may wait for its server (KANDEV_LSP_REQUEST_TIMEOUT_MS). */
  lspRequestTimeoutMs: number;
  /** 0: no restarts to survive, so no lease state is kept for one. */
  restartGraceMs: number;
}

export interface LeaseBrokerDeps {
  config: LeaseBrokerSettings;
  sessions: SessionService;
  tasks: TaskRepository;
  settings: SettingsService;
  leaseStore: LeaseRepository;
  metrics: BackendMetrics;
  keepalive: KeepaliveTiming;
  log: Logger;
  clock?: Clock;
}

export function startLeaseBroker(deps: LeaseBrokerDeps): BrokerRuntime {
  const { config, sessions, tasks, settings, metrics, log } = deps;
  const runtime = new BrokerRuntime({
    maxLeases: config.lspMaxConnections,
    restartLimit: config.lspRestartLimit,
    requestTimeoutMs: config.lspRequestTimeoutMs,
    // agentctl is pinged like a browser; one that stops answering (hung, SIGSTOP) is dropped, so
    // its leases end with 4009 and their slots free up instead of hanging forever.
    openUpstream: taskHostStreamOpener(sessions, {
      keepalive: deps.keepalive,
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
    ...(config.restartGraceMs > 0 ? { leaseStore: deps.leaseStore } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  sessions.onEnded((sessionId) => runtime.sessionStopped(sessionId));
  settings.onChange(({ next }) => runtime.settingsChanged(next));
  registerLeaseMetrics(metrics.registry, () => runtime.metrics());
  registerProcessMetrics(metrics.registry, { activeResources: () => process.getActiveResourcesInfo(), clockTimers: pendingSystemClockTimers });
  return runtime;
}
