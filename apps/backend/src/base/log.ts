import {
  createLogger as createTransportLogger,
  type Logger as TransportLogger,
  type LoggerOptions,
  type OwnedLogger as TransportOwnedLogger,
} from '@kandev/node-transport';

/**
 * The backend's log events: a closed set, so logs can be queried and alerted on. The logger itself
 * (levels, bounded and redacted fields, asynchronous output flushed at exit and close) is the one
 * of @kandev/node-transport; fields never carry tokens or lease ids.
 */
export const LOG_EVENTS = [
  'backend_started',
  'backend_stopping',
  'backend_stopped',
  'backend_exposed',
  'access_ready',
  'access_token_replaced',
  'config_invalid',
  'store_migrated',
  'request_failed',
  'request_refused',
  'task_created',
  'task_renamed',
  'task_deleted',
  'task_trust_changed',
  'task_ensured',
  'demo_workspace_seeded',
  'session_starting',
  'session_running',
  'session_failed',
  'session_stopped',
  'sessions_recovered',
  'task_host_not_adopted',
  'lease_adopted',
  'lease_not_adopted',
  'backend_restart_requested',
  'backend_locked',
  'task_host_exited',
  'task_host_reclaimed',
  'task_host_kill_escalated',
  // Processes of a task host found by their marker after its agentctl ended (taskHostMarker.ts).
  'task_host_orphans_reaped',
  'task_host_orphans_survived',
  // Session logs older than KANDEV_LOG_RETENTION_DAYS deleted (fields: count).
  'logs_pruned',
  'settings_updated',
  'settings_reset',
  'lsp_refused',
  'lsp_opened',
  'lsp_closed',
  'lsp_upstream_failed',
  'lsp_released',
  // A JSON-RPC message refused for its nesting (fields: from browser|server, kind).
  'lsp_frame_refused',
  // A peer that left its pings unanswered was dropped (fields: peer browser|task_host).
  'lsp_peer_unresponsive',
  // The lease broker's lifecycle (fields: reason from its closed set, language; never an id).
  'lease_create',
  'lease_attach',
  'lease_detach',
  'lease_reattach',
  'lease_release',
  'lease_expiry',
  'lease_eviction',
  'lease_exit',
  'lease_restart',
  // The live workspace's events stream (fields: pages, code, reason).
  'events_opened',
  'events_closed',
  'events_upstream_failed',
  // A page's `in_view` control refused by its schema (fields: code, detail).
  'in_view_refused',
  // The soak's heap probe could not answer (KANDEV_HEAP_PROBE_DIR set; fields: error).
  'heap_probe_failed',
  'mcp_client_opened',
  'mcp_client_closed',
] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];
export type { LogFields, LogLevel } from '@kandev/node-transport';
export type Logger = TransportLogger<LogEvent>;
export type OwnedLogger = TransportOwnedLogger<LogEvent>;

export function createLogger(options: LoggerOptions): OwnedLogger {
  return createTransportLogger<LogEvent>(options);
}

export const silentLogger: Logger = createLogger({ targets: [] });
