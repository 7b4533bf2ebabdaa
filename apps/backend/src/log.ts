/**
 * Structured logs: one JSON object a line. Event names are a closed set so logs can be queried and
 * alerted on; fields never carry tokens or lease ids (callers pass only what is listed here).
 */
export const LOG_EVENTS = [
  'backend_started',
  'backend_stopping',
  'backend_stopped',
  'backend_exposed',
  'access_ready',
  'config_invalid',
  'store_migrated',
  'request_failed',
  'request_refused',
  'task_created', 'task_renamed', 'task_deleted',
  'task_trust_changed',
  'task_ensured',
  'demo_workspace_seeded',
  'session_starting',
  'session_running',
  'session_failed',
  'session_stopped',
  'sessions_recovered',
  'task_host_exited',
  'task_host_reclaimed',
  'task_host_kill_escalated',
  // Processes of a task host found by their marker after its agentctl ended (taskHostMarker.ts).
  'task_host_orphans_reaped',
  'task_host_orphans_survived',
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
] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(event: LogEvent, fields?: LogFields): void;
  info(event: LogEvent, fields?: LogFields): void;
  warn(event: LogEvent, fields?: LogFields): void;
  error(event: LogEvent, fields?: LogFields): void;
}

export type LogSink = (line: string) => void;

/**
 * A sink that gathers the lines logged by one run of synchronous work and hands them to `write`
 * as one chunk, in order, on the next tick (and at process exit): the same bytes as a write per
 * line, but one synchronous write per run instead of one per line on a busy relay. The next tick
 * comes before any I/O of a later turn, so a line is still out before what follows it is observed.
 */
export function batchedSink(write: (chunk: string) => void): LogSink & { flush(): void } {
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
      // A full disk or a closed stderr must never take the backend down.
    }
  };
  process.once('exit', flush);
  return Object.assign((line: string) => {
    pending.push(line);
    if (scheduled) return;
    scheduled = true;
    process.nextTick(flush);
  }, { flush });
}

export function createLogger(sinks: LogSink[], now: () => Date = () => new Date()): Logger {
  const write = (level: LogLevel, event: LogEvent, fields: LogFields = {}): void => {
    const record: Record<string, unknown> = { time: now().toISOString(), level, event };
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) record[key] = value;
    const line = `${JSON.stringify(record)}\n`;
    for (const sink of sinks) sink(line);
  };
  return {
    debug: (event, fields) => write('debug', event, fields),
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}

export const silentLogger: Logger = createLogger([]);
