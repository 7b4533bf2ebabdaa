/**
 * The agentctl launch contract (docs/internals.md, "How the backend starts agentctl"): the
 * environment the backend hands agentctl, and the one stdout line agentctl answers with once it
 * listens. Both sides import these names so a rename cannot leave one side reading a variable the
 * other no longer writes.
 */

/** Every variable of agentctl's own starts with this; a task may not set (or inherit) any of them. */
export const AGENTCTL_ENV_PREFIX = 'AGENTCTL_';

export const AGENTCTL_ENV = {
  token: 'AGENTCTL_TOKEN',
  workspace: 'AGENTCTL_WORKSPACE',
  repos: 'AGENTCTL_REPOS',
  host: 'AGENTCTL_HOST',
  port: 'AGENTCTL_PORT',
  /** '1': agentctl shuts down when its stdin reaches end-of-file (the backend that started it is gone). */
  exitOnStdinClose: 'AGENTCTL_EXIT_ON_STDIN_CLOSE',
  /**
   * Milliseconds agentctl keeps running once no backend is linked to it (its stdin closed, or its
   * backend link dropped), so a restarted backend can re-adopt it; then it stops and reaps. Absent
   * or 0: it stops at once, as before restarts were kept.
   */
  orphanGraceMs: 'AGENTCTL_ORPHAN_GRACE_MS',
  /**
   * An absolute path: agentctl appends its JSON log lines to this file itself (rotated past
   * AGENTCTL_LOG_MAX_BYTES) instead of stderr, so a task host that outlives the backend which
   * started it, and is re-adopted by the next one, keeps a log (stderr was a pipe to the dead one).
   */
  logFile: 'AGENTCTL_LOG_FILE',
  logMaxBytes: 'AGENTCTL_LOG_MAX_BYTES',
  /** Test knobs: shorten the WebSocket keepalive so a dead client is detected within a test. */
  pingIntervalMs: 'AGENTCTL_PING_INTERVAL_MS',
  pingMisses: 'AGENTCTL_PING_MISSES',
} as const;

/** True for agentctl's own variables, which never pass from a task or a parent into agentctl's env. */
export function isAgentctlVariable(name: string): boolean {
  return name.toUpperCase().startsWith(AGENTCTL_ENV_PREFIX);
}

export interface AgentctlLaunchSettings {
  token: string;
  workspacePath: string;
  repoSubpaths: readonly string[];
  host: string;
  /** 0 lets the OS pick; agentctl reports the port it got in the listening line. */
  port: number;
  exitOnStdinClose: boolean;
  /** How long an unlinked agentctl waits for a backend to re-adopt it (0: it stops at once). */
  orphanGraceMs?: number;
  /** Where agentctl writes its own log (absent: stderr), and its bound before it moves to `.1`. */
  logFile?: string;
  logMaxBytes?: number;
}

/** The AGENTCTL_* variables for one launch, to be laid over the (already filtered) task env. */
export function agentctlLaunchEnv(settings: AgentctlLaunchSettings): Record<string, string> {
  return {
    [AGENTCTL_ENV.token]: settings.token,
    [AGENTCTL_ENV.workspace]: settings.workspacePath,
    [AGENTCTL_ENV.repos]: JSON.stringify(settings.repoSubpaths),
    [AGENTCTL_ENV.host]: settings.host,
    [AGENTCTL_ENV.port]: String(settings.port),
    ...(settings.exitOnStdinClose ? { [AGENTCTL_ENV.exitOnStdinClose]: '1' } : {}),
    ...(settings.orphanGraceMs ? { [AGENTCTL_ENV.orphanGraceMs]: String(settings.orphanGraceMs) } : {}),
    ...(settings.logFile ? { [AGENTCTL_ENV.logFile]: settings.logFile } : {}),
    ...(settings.logFile && settings.logMaxBytes ? { [AGENTCTL_ENV.logMaxBytes]: String(settings.logMaxBytes) } : {}),
  };
}

/** The line agentctl prints (with a trailing newline) once it listens, and nothing else on stdout. */
export function formatListeningLine(port: number): string {
  return `${JSON.stringify({ event: 'listening', port })}\n`;
}

/**
 * A listening line is short; anything longer is some other output (a library printing to stdout)
 * and is not parsed at all, so a huge line costs no JSON parse.
 */
export const MAX_LISTENING_LINE = 256;

/**
 * The port of a `{"event":"listening","port":N}` line (without its newline), or undefined for any
 * other line: callers skip other stdout lines instead of failing on them. Port 0 is not a port
 * one can connect to, so it is not a listening line either.
 */
export function parseListeningLine(line: string): number | undefined {
  if (line.length > MAX_LISTENING_LINE) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { event, port } = parsed as { event?: unknown; port?: unknown };
  if (event !== 'listening' || typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65_535) return undefined;
  return port;
}
