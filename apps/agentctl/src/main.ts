/**
 * agentctl entry point (docs/internals.md): reads AGENTCTL_* from the environment, serves the
 * files API and LSP streams, prints exactly one `{"event":"listening","port":N}` line on stdout,
 * and on SIGTERM/SIGINT closes every stream with 1001, reaps every tree and exits 0.
 */
import { after, systemClock } from '@kandev/kit';
import { startHeapProbe } from '@kandev/node-transport';
import { AGENTCTL_ENV, STDIN_WRITE_CUTOFF_MS, WS_PING_INTERVAL_MS, WS_PING_MAX_MISSES, WS_WRITE_DEADLINE_MS, formatListeningLine } from '@kandev/protocol';
import { readConfig } from './config.js';
import { installLanguageServer } from './install/index.js';
import { createLogger, errorFields, logTargets } from './base/log.js';
import { startWatchdog } from './process/watchdog.js';
import { createAgentctlServer } from './server.js';
import { BackendLinks } from './host/backendLinks.js';
import type { InstallLanguageServer } from './install/seam.js';

/** SIGTERM then SIGKILL: how long a language server gets to exit on its own. */
const REAP_GRACE_MS = 3_000;
/** How long a just-exited server's last stdout is still forwarded before 4006. */
const EXIT_FLUSH_MS = 1_000;
/** On a release, the server's moment to act on `exit` before SIGTERM (it usually exits at once). */
const EXIT_READ_GRACE_MS = 1_000;
/** Teardown never hangs the task host's stop: after this, exit regardless. */
const SHUTDOWN_DEADLINE_MS = 20_000;

/** The installer module (install/), plugged into the stream through its seam (install/seam.ts). */
const installer: InstallLanguageServer = (request) => installLanguageServer(request);

/** Ping timing may be shortened for tests (AGENTCTL_PING_INTERVAL_MS / AGENTCTL_PING_MISSES). */
function positiveInt(raw: string | undefined, fallback: number): number {
  return raw !== undefined && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : fallback;
}

async function main(): Promise<void> {
  const parsed = readConfig(process.env);
  if (!parsed.ok) {
    // On stderr: the backend quotes it when agentctl ends before it listens (and keeps it in the log).
    const early = createLogger();
    early.log('error', 'config_invalid', { error: parsed.error });
    early.flushSync();
    process.exit(2);
  }
  const logger = createLogger({ targets: logTargets(process.env) });
  const config = parsed.value;
  // Before any stream exists: every process started from here on carries this instance's marker,
  // and the watchdog kills what carries it once this process is gone, however it ends.
  startWatchdog(process.env);
  logger.log('info', 'starting', { workspacePath: config.workspacePath, repos: config.repoSubpaths.length, platform: process.platform });
  const keepalive = {
    intervalMs: positiveInt(process.env[AGENTCTL_ENV.pingIntervalMs], WS_PING_INTERVAL_MS),
    maxMisses: positiveInt(process.env[AGENTCTL_ENV.pingMisses], WS_PING_MAX_MISSES),
  };
  // How long the task host outlives its backend, so a restarted backend can re-adopt it (0: not at all).
  const orphanGraceMs = positiveInt(process.env[AGENTCTL_ENV.orphanGraceMs], 0);
  const links = new BackendLinks({
    graceMs: orphanGraceMs,
    keepalive,
    writeDeadlineMs: WS_WRITE_DEADLINE_MS,
    logger,
    onOrphaned: () => stop('SIGTERM'),
  });
  const server = await createAgentctlServer({
    links,
    token: config.token,
    workspacePath: config.workspacePath,
    repoSubpaths: config.repoSubpaths,
    env: process.env,
    platform: process.platform,
    installer,
    logger,
    timings: {
      wsWriteDeadlineMs: WS_WRITE_DEADLINE_MS,
      stdinCutoffMs: STDIN_WRITE_CUTOFF_MS,
      reapGraceMs: REAP_GRACE_MS,
      exitFlushMs: EXIT_FLUSH_MS,
      exitReadGraceMs: EXIT_READ_GRACE_MS,
      keepalive,
      parkGraceMs: orphanGraceMs,
    },
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log('info', 'shutdown_begin', { signal, streams: server.streams.size });
    // A clock timer never holds the process open: a clean shutdown exits before it fires.
    after(systemClock, SHUTDOWN_DEADLINE_MS, () => {
      logger.log('error', 'shutdown_done', { forced: true });
      logger.flushSync();
      process.exit(1);
    });
    server.shutdown().then(
      () => {
        logger.log('info', 'shutdown_done', { forced: false });
        logger.flushSync();
        process.exit(0);
      },
      (err) => {
        logger.log('error', 'shutdown_done', { forced: false, ...errorFields(err) });
        logger.flushSync();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A parent that died leaves closed pipes: a failed log write must not raise an error that is
  // logged again (an endless loop), so write errors on our own stdio are dropped.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  if (process.env[AGENTCTL_ENV.exitOnStdinClose] === '1') {
    // The backend that started this task host is gone. With a grace period, a backend restarted on
    // the same home may still link to it and re-adopt its servers; without one it stops now.
    const parentGone = () => (orphanGraceMs > 0 ? links.unowned() : stop('SIGTERM'));
    process.stdin.on('end', parentGone);
    process.stdin.on('error', parentGone);
    process.stdin.resume();
  }
  // Bad input must never take the daemon down; a bug is logged, not fatal to every stream.
  process.on('uncaughtException', (err) => logger.log('error', 'internal_error', { where: 'uncaughtException', ...errorFields(err) }));
  process.on('unhandledRejection', (err) => logger.log('error', 'internal_error', { where: 'unhandledRejection', ...errorFields(err) }));
  // Soak bench only (KANDEV_HEAP_PROBE_DIR, inherited from its backend): off otherwise.
  startHeapProbe(process.env, (err) => logger.log('warn', 'heap_probe_failed', errorFields(err)));

  const port = await server.listen(config.host, config.port);
  logger.log('info', 'listening', { host: config.host, port });
  process.stdout.write(formatListeningLine(port));
}

main().catch((err) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'internal_error', ...errorFields(err) })}\n`);
  process.exit(1);
});
