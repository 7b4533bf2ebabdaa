/**
 * Structured logs: one JSON object a line on stderr. Event names are a closed set so the backend
 * and a person grepping can rely on them; fields never carry the bearer token (nothing that reads
 * the token passes it here) and long strings are cut so a chatty server cannot flood the log.
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
  | 'resolve_result'
  | 'install_begin'
  | 'install_done'
  | 'install_failed'
  | 'install_cancelled'
  | 'launch_failed'
  | 'server_started'
  | 'server_exited'
  | 'server_stderr'
  | 'server_stderr_truncated'
  | 'server_bad_output'
  | 'server_stdin_timeout'
  | 'reap_done'
  | 'reap_incomplete'
  | 'internal_error';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined | readonly string[]>;

export interface Logger {
  log(level: LogLevel, event: LogEvent, fields?: LogFields): void;
}

const MAX_FIELD_CHARS = 2_000;

function bounded(value: LogFields[string]): LogFields[string] {
  if (typeof value === 'string' && value.length > MAX_FIELD_CHARS) return `${value.slice(0, MAX_FIELD_CHARS)}…`;
  return value;
}

/**
 * Gathers the lines of one run of synchronous work into one write on the next tick (and at exit): stderr
 * on a pipe or file is written synchronously, so a write per line would stall a busy relay.
 */
export function batchedWrite(write: (chunk: string) => void): (line: string) => void {
  let pending: string[] = [];
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    try {
      write(chunk);
    } catch {
      // A closed stderr must never take the daemon down.
    }
  };
  process.once('exit', flush);
  return (line) => {
    pending.push(line);
    if (scheduled) return;
    scheduled = true;
    process.nextTick(flush);
  };
}

/** A logger that writes JSON lines to `write` (stderr, batched per run of synchronous work, by default). */
export function createLogger(write: (line: string) => void = batchedWrite((chunk) => process.stderr.write(chunk))): Logger {
  return {
    log(level, event, fields = {}) {
      const record: Record<string, unknown> = { time: new Date().toISOString(), level, event };
      for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined) record[key] = bounded(value);
      }
      try {
        write(`${JSON.stringify(record)}\n`);
      } catch {
        // A closed stderr must never take the daemon down.
      }
    },
  };
}

/** A logger that discards everything; for unit tests that do not assert on logs. */
export const silentLogger: Logger = { log() {} };

/** Error detail for logs without stacks: code and message only. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return { error: err.message, errorCode: typeof code === 'string' ? code : undefined };
  }
  return { error: String(err) };
}
