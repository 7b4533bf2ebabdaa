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
  | 'watch_error'
  | 'watch_overflow'
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

/** A logger that discards everything; for unit tests that do not assert on logs. */
export const silentLogger: Logger = createLogger({ targets: [] });
