import { isAbsolute } from 'node:path';
import { AGENTCTL_ENV } from '@kandev/protocol';
import {
  createLogger as createTransportLogger,
  type Logger as TransportLogger,
  type LoggerOptions,
  type OwnedLogger as TransportOwnedLogger,
} from '@kandev/node-transport';

/**
 * agentctl's log events: a closed set, so the backend and a person grepping can rely on them. The
 * logger (one JSON line each on stderr, levels, long strings cut, secret keys redacted,
 * asynchronous output flushed at exit) is the one of @kandev/node-transport.
 */
export type LogEvent =
  | 'starting'
  | 'config_invalid'
  | 'listening'
  | 'shutdown_begin'
  | 'shutdown_done'
  | 'http_request_failed'
  | 'auth_refused'
  | 'path_refused'
  | 'search_engine'
  | 'search_finished'
  | 'search_cancelled'
  | 'search_failed'
  | 'stream_open'
  | 'stream_refused'
  | 'stream_closed'
  | 'stream_release'
  | 'stream_bad_frame'
  | 'stream_write_timeout'
  | 'stream_write_failed'
  | 'stream_client_unresponsive'
  | 'stream_frame_refused'
  | 'stream_parked'
  | 'stream_resumed'
  | 'stream_resume_refused'
  | 'stream_park_expired'
  | 'backend_linked'
  | 'backend_unlinked'
  | 'orphan_grace_expired'
  | 'resolve_result'
  | 'install_begin'
  | 'install_done'
  | 'install_failed'
  | 'install_cancelled'
  | 'launch_failed'
  | 'server_started'
  // The server's own temporary folder could not be made (it gets the task's) or removed (fields: path, error, errorCode).
  | 'server_tmp_failed'
  | 'server_network_not_isolated'
  | 'server_exited'
  | 'server_stderr'
  | 'server_stderr_truncated'
  | 'server_bad_output'
  | 'server_stdin_timeout'
  | 'reap_done'
  | 'reap_incomplete'
  | 'watch_started'
  | 'watch_degraded'
  | 'watch_reconciled'
  // The soak's heap probe could not answer (KANDEV_HEAP_PROBE_DIR set; fields: error).
  | 'heap_probe_failed'
  | 'watch_error'
  | 'watch_overflow'
  // A page's `in_view` control refused by its schema (fields: code, detail).
  | 'in_view_refused'
  | 'events_open'
  | 'events_closed'
  | 'git_state_failed'
  | 'internal_error';

export { errorFields, type LogFields, type LogLevel } from '@kandev/node-transport';
export type Logger = TransportLogger<LogEvent>;

/** agentctl's logger: JSON lines on stderr, which the backend keeps per session. */
export function createLogger(options: LoggerOptions = { targets: [{ stderr: true }] }): TransportOwnedLogger<LogEvent> {
  return createTransportLogger<LogEvent>(options);
}

/**
 * Where agentctl's log goes: the file the backend named in AGENTCTL_LOG_FILE when it is an absolute
 * path (written here, so it outlives the backend that started this process), else stderr (a task
 * container, whose output the backend reads from the container's log).
 */
export function logTargets(env: Record<string, string | undefined>): LoggerOptions['targets'] {
  const file = env[AGENTCTL_ENV.logFile];
  if (!file || !isAbsolute(file)) return [{ stderr: true }];
  const raw = env[AGENTCTL_ENV.logMaxBytes];
  const maxBytes = raw !== undefined && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
  return [maxBytes === undefined ? { file } : { file, maxBytes }];
}

/** A logger that discards everything; for unit tests that do not assert on logs. */
export const silentLogger: Logger = createLogger({ targets: [] });
