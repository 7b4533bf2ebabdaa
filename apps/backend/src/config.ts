import {
  ACCESS_TOKEN_PATTERN,
  BROWSER_REQUEST_TIMEOUT_MS,
  DEFAULT_RESTART_GRACE_MS,
  SERVER_RESTART_LIMIT,
  WS_PING_INTERVAL_MS,
  WS_PING_MAX_MISSES,
} from '@kandev/protocol';
import { homedir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDockerConfig, type DockerConfig } from './executors/docker/dockerConfig.js';
import { findRepoRoot } from './paths.js';
import { fail, ok, type Result } from './base/result.js';
import { defaultMaxLeases } from './lsp/broker/capacity.js';
import { DEFAULT_LOG_MAX_BYTES } from '@kandev/node-transport';

/** Everything the backend reads from its environment, resolved once at start-up. */
export interface BackendConfig {
  host: string;
  /** 0 picks a free port; the started backend reports the real one. */
  port: number;
  /** Holds kandev.db and logs/. */
  home: string;
  repoRoot: string;
  /** argv that starts one agentctl (local_pc). A leading `node` means this very Node binary. */
  agentctlCommand: string[];
  /** The one-file agentctl bundle; local_docker mounts it into task containers. */
  agentctlBundle: string;
  agentctlStartTimeoutMs: number;
  /** How long agentctl gets to reap its servers after SIGTERM before its process group is killed. */
  agentctlStopGraceMs: number;
  webDir: string;
  /** Origins (scheme://host:port) besides the backend's own that may open LSP streams and write. */
  allowedOrigins: string[];
  /** Lease slots: KANDEV_LSP_MAX_CONNECTIONS, else half the memory at 256 MiB a server, at least 20. */
  lspMaxConnections: number;
  /** WebSocket pings on both LSP hops: interval, and unanswered pings in a row that mean a dead peer. */
  lspPingIntervalMs: number;
  lspPingMisses: number;
  /** Restarts of a crashed leased server within 3 minutes (KANDEV_LSP_RESTART_LIMIT, 5; 0: never). */
  lspRestartLimit: number;
  /** How long a browser request may wait for its server's answer before the broker answers it with an error. */
  lspRequestTimeoutMs: number;
  /** A running task host unused and unpinned this long is stopped (0: never). */
  taskHostIdleMs: number;
  /** An agent's lease idle this long is released (KANDEV_MCP_LEASE_IDLE_MS, 10 minutes; docs/agents.md). */
  mcpLeaseIdleMs?: number;
  /**
   * How long task hosts outlive a backend that died or was restarted (KANDEV_RESTART_GRACE_MS,
   * 2 minutes; 0: they stop with it), so the next backend on this home re-adopts them warm.
   */
  restartGraceMs: number;
  /** The folder `--demo` copies into $KANDEV_HOME/demo-workspace. */
  demoSource: string;
  logToStderr: boolean;
  /** A log file (backend.log, agentctl-<session>.log) past this moves to `.1` (KANDEV_LOG_MAX_BYTES, 10 MiB). */
  logMaxBytes: number;
  /** Session logs nobody wrote to for this long are deleted (KANDEV_LOG_RETENTION_DAYS, 14; 0: kept). */
  logRetentionDays: number;
  /** KANDEV_TOKEN: a fixed access token for scripted use; otherwise KANDEV_HOME/access-token. */
  accessToken: string | undefined;
  /** local_docker: DOCKER_HOST, KANDEV_DOCKER_IMAGE, KANDEV_DOCKER_NETWORK, KANDEV_DOCKER_MOUNTS. */
  docker: DockerConfig;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_PORT = 7420;
export const DEFAULT_HOST = '127.0.0.1';

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return path;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): Result<number, string> {
  const raw = env[name];
  if (raw === undefined || raw === '') return ok(fallback);
  if (!/^\d+$/.test(raw)) return fail(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) return fail(`${name} must be between ${min} and ${max}`);
  return ok(value);
}

function argv(env: Env, name: string, fallback: string[]): Result<string[], string> {
  const raw = env[name];
  if (raw === undefined || raw === '') return ok(fallback);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(`${name} must be a JSON array of strings, e.g. ["node","agentctl.mjs"]`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.some((a) => typeof a !== 'string' || a === '')) {
    return fail(`${name} must be a non-empty JSON array of non-empty strings`);
  }
  return ok(parsed as string[]);
}

function origins(env: Env, name: string): Result<string[], string> {
  const raw = env[name];
  if (!raw) return ok([]);
  const out: string[] = [];
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      const url = new URL(item);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`${name}: ${item} is not an http(s) origin`);
      out.push(url.origin);
    } catch {
      return fail(`${name}: ${item} is not an origin like http://localhost:5173`);
    }
  }
  return ok(out);
}

function accessToken(env: Env): Result<string | undefined, string> {
  const raw = env.KANDEV_TOKEN;
  if (raw === undefined || raw === '') return ok(undefined);
  // Never echo the value: the error lands in logs and terminals.
  if (!ACCESS_TOKEN_PATTERN.test(raw)) return fail('KANDEV_TOKEN must be 16 to 256 characters of A-Z a-z 0-9 . _ ~ -');
  return ok(raw);
}

/** Reads the configuration; a bad value is an error naming the variable, never a silent default. */
export function loadConfig(env: Env = process.env, repoRoot: string = findRepoRoot(), totalMemoryBytes: number = totalmem()): Result<BackendConfig, string> {
  const port = integer(env, 'KANDEV_PORT', DEFAULT_PORT, 0, 65535);
  if (!port.ok) return port;
  const startTimeout = integer(env, 'KANDEV_AGENTCTL_START_TIMEOUT_MS', 30_000, 100, 600_000);
  if (!startTimeout.ok) return startTimeout;
  const stopGrace = integer(env, 'KANDEV_AGENTCTL_STOP_GRACE_MS', 10_000, 0, 600_000);
  if (!stopGrace.ok) return stopGrace;
  // Unset: sized from the machine's memory (lsp/broker/capacity.ts); set: exactly that many leases.
  const maxConnections = integer(env, 'KANDEV_LSP_MAX_CONNECTIONS', defaultMaxLeases(totalMemoryBytes), 1, 10_000);
  if (!maxConnections.ok) return maxConnections;
  const pingInterval = integer(env, 'KANDEV_LSP_PING_INTERVAL_MS', WS_PING_INTERVAL_MS, 10, 3_600_000);
  if (!pingInterval.ok) return pingInterval;
  const pingMisses = integer(env, 'KANDEV_LSP_PING_MISSES', WS_PING_MAX_MISSES, 1, 100);
  if (!pingMisses.ok) return pingMisses;
  const restartLimit = integer(env, 'KANDEV_LSP_RESTART_LIMIT', SERVER_RESTART_LIMIT, 0, 100);
  if (!restartLimit.ok) return restartLimit;
  const requestTimeout = integer(env, 'KANDEV_LSP_REQUEST_TIMEOUT_MS', BROWSER_REQUEST_TIMEOUT_MS, 100, 600_000);
  if (!requestTimeout.ok) return requestTimeout;
  const idle = integer(env, 'KANDEV_TASK_HOST_IDLE_MS', 30 * 60_000, 0, 7 * 24 * 3_600_000);
  if (!idle.ok) return idle;
  const mcpIdle = integer(env, 'KANDEV_MCP_LEASE_IDLE_MS', 10 * 60_000, 1_000, 24 * 3_600_000);
  if (!mcpIdle.ok) return mcpIdle;
  const restartGrace = integer(env, 'KANDEV_RESTART_GRACE_MS', DEFAULT_RESTART_GRACE_MS, 0, 24 * 3_600_000);
  if (!restartGrace.ok) return restartGrace;
  const logMaxBytes = integer(env, 'KANDEV_LOG_MAX_BYTES', DEFAULT_LOG_MAX_BYTES, 64 * 1024, 1024 * 1024 * 1024);
  if (!logMaxBytes.ok) return logMaxBytes;
  const logRetention = integer(env, 'KANDEV_LOG_RETENTION_DAYS', 14, 0, 3650);
  if (!logRetention.ok) return logRetention;
  const bundle = env.KANDEV_AGENTCTL_BUNDLE ? resolve(env.KANDEV_AGENTCTL_BUNDLE) : join(repoRoot, 'apps/agentctl/dist/agentctl.mjs');
  const command = argv(env, 'KANDEV_AGENTCTL_COMMAND', ['node', bundle]);
  if (!command.ok) return command;
  const allowed = origins(env, 'KANDEV_ALLOWED_ORIGINS');
  if (!allowed.ok) return allowed;
  const docker = loadDockerConfig(env);
  if (!docker.ok) return docker;
  const token = accessToken(env);
  if (!token.ok) return token;
  return ok({
    host: env.KANDEV_HOST || DEFAULT_HOST,
    port: port.value,
    home: resolve(expandHome(env.KANDEV_HOME || '~/.kandev')),
    repoRoot,
    agentctlCommand: command.value,
    agentctlBundle: bundle,
    agentctlStartTimeoutMs: startTimeout.value,
    agentctlStopGraceMs: stopGrace.value,
    webDir: env.KANDEV_WEB_DIR ? resolve(env.KANDEV_WEB_DIR) : join(repoRoot, 'apps/web/dist'),
    allowedOrigins: allowed.value,
    lspMaxConnections: maxConnections.value,
    lspPingIntervalMs: pingInterval.value,
    lspPingMisses: pingMisses.value,
    lspRestartLimit: restartLimit.value,
    lspRequestTimeoutMs: requestTimeout.value,
    taskHostIdleMs: idle.value,
    mcpLeaseIdleMs: mcpIdle.value,
    restartGraceMs: restartGrace.value,
    demoSource: env.KANDEV_DEMO_SOURCE ? resolve(env.KANDEV_DEMO_SOURCE) : join(repoRoot, 'demo/workspace'),
    logToStderr: env.KANDEV_LOG_STDERR !== '0',
    logMaxBytes: logMaxBytes.value,
    logRetentionDays: logRetention.value,
    accessToken: token.value,
    docker: docker.value,
  });
}
