import { errorFields, startHeapProbe } from '@kandev/node-transport';
import { ACCESS_TOKEN_PARAM } from '@kandev/protocol';
import { parseCli, USAGE } from './cli.js';
import { loadConfig } from './config.js';
import { messageOf } from './base/result.js';
import { startBackend } from './server.js';
import { bundledServersEnv, DEMO_TASK_TITLE, ensureFolderTask, seedDemoWorkspace } from './tasks/workspaceTasks.js';

/**
 * `kandev [--demo] [--workspace DIR]`: starts the backend, seeds the requested tasks, and on
 * SIGTERM/SIGINT stops every session (reaping each agentctl) before exiting.
 */
async function main(): Promise<number> {
  const cli = parseCli(process.argv.slice(2));
  if (!cli.ok) {
    process.stderr.write(`${cli.error}\n\n${USAGE}`);
    return 2;
  }
  if (cli.value.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (!config.ok) {
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', event: 'config_invalid', detail: config.error })}\n`);
    return 2;
  }
  const backend = await startBackend(config.value);
  // Soak bench only (KANDEV_HEAP_PROBE_DIR): off otherwise; docs/internals.md.
  startHeapProbe(process.env, (err) => backend.log.log('warn', 'heap_probe_failed', errorFields(err)));
  const env = bundledServersEnv(config.value.repoRoot, process.env.PATH);
  if (cli.value.demo) {
    const folder = seedDemoWorkspace(config.value.demoSource, config.value.home, backend.log);
    if (!folder.ok) return fatal(backend, folder.error);
    const task = ensureFolderTask(backend.tasks, backend.log, { folder: folder.value, title: DEMO_TASK_TITLE, env });
    if (!task.ok) return fatal(backend, task.error);
  }
  for (const folder of cli.value.workspaces) {
    const task = ensureFolderTask(backend.tasks, backend.log, { folder, env });
    if (!task.ok) return fatal(backend, task.error);
  }

  process.stdout.write(`Kandev is running at ${backend.url}/\n`);
  // The one place the token is shown: stdout of the person who started Kandev, never a log.
  process.stdout.write(
    `Open ${signInUrl(backend.url, backend.access.value)} to sign in (the token is kept in ${backend.access.source === 'env' ? 'KANDEV_TOKEN' : backend.access.file}).\n`,
  );
  return new Promise<number>((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGUSR2'];
    const done = (): void => signals.forEach((s) => process.off(s, onSignal));
    // A stop stops: every task host ends and every tree is reaped.
    const stop = (): void => {
      done();
      backend.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    // A restart (`npm run restart`, or SIGUSR2): task hosts and their servers keep running for
    // KANDEV_RESTART_GRACE_MS, and the next start on this home re-adopts them warm.
    const restart = (): void => {
      done();
      const graceS = Math.round(config.value.restartGraceMs / 1000);
      backend.closeForRestart().then(
        () => {
          process.stdout.write(`Kandev stopped for a restart: its task hosts keep running for ${graceS} s; start it again to resume them.\n`);
          resolve(0);
        },
        () => resolve(1),
      );
    };
    function onSignal(signal: NodeJS.Signals): void {
      if (signal === 'SIGUSR2' && config.ok && config.value.restartGraceMs > 0) restart();
      else stop();
    }
    signals.forEach((s) => process.on(s, onSignal));
  });
}

/** The start link; a wildcard bind (0.0.0.0, ::) is opened through loopback on this machine. */
function signInUrl(base: string, token: string): string {
  const url = new URL(`${base}/`);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  url.searchParams.set(ACCESS_TOKEN_PARAM, token);
  return url.toString();
}

async function fatal(backend: { close(): Promise<void> }, message: string): Promise<number> {
  process.stderr.write(`kandev: ${message}\n`);
  await backend.close();
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`kandev: ${messageOf(err)}\n`);
    process.exit(1);
  },
);
