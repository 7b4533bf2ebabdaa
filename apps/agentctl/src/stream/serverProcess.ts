import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { logServerStderr } from '../bridge/stderrLog.js';
import type { CatalogLanguage } from '../catalog/catalog.js';
import { errorFields, type LogEvent, type LogFields, type Logger, type LogLevel } from '../base/log.js';
import { launchServer, type LaunchedServer } from '../process/launch.js';
import { launchCommand } from '../process/launchCommand.js';
import { newTreeMarker, reapTree } from '../process/reapTree.js';
import { envValue, isWindows, type TaskEnv } from '../env/taskEnv.js';
import type { NetworkSandbox } from '../trust/networkSandbox.js';

const STDERR_BUDGET_BYTES = 256 * 1024;

/** What starting and reaping a stream's language server needs from the stream. */
export interface ServerProcessContext {
  env: TaskEnv;
  platform: NodeJS.Platform;
  cwd: string;
  logger: Logger;
  streamId: number;
  log(level: LogLevel, event: LogEvent, fields?: LogFields): void;
  /** Untrusted: the network sandbox the server runs in (or why there is none). Trusted: absent. */
  sandbox?: NetworkSandbox;
}

/**
 * Starts the language server in its own process tree (a fresh tree marker), its stderr going to the
 * log. Undefined when it could not start: S28, the browser gets a bare 4008 and the why is logged here.
 */
export async function startServer(ctx: ServerProcessContext, language: CatalogLanguage, launcher: string): Promise<LaunchedServer | undefined> {
  const plain = launchCommand(launcher, language.args, ctx.platform, ctx.env);
  const wrapped = ctx.sandbox?.network === 'off';
  // Inside the sandbox the wrapper starts, and a server it cannot exec would look like one that exited
  // (4006): the same launch failure (4008, with its errno in the log) is found before wrapping.
  const unlaunchable = wrapped ? cannotExecute(plain.command) : undefined;
  if (unlaunchable) {
    ctx.log('warn', 'launch_failed', { path: launcher, errorCode: unlaunchable.code, error: unlaunchable.message });
    return undefined;
  }
  const command = ctx.sandbox?.network === 'off' ? ctx.sandbox.wrap(plain) : plain;
  const tempDir = ownTempDir(ctx);
  const env = tempDir ? { ...ctx.env, TMPDIR: tempDir } : ctx.env;
  const result = await launchServer({ command, cwd: ctx.cwd, env, marker: newTreeMarker() });
  if (!result.ok) {
    removeTempDir(ctx, tempDir);
    ctx.log('warn', 'launch_failed', { path: launcher, errorCode: result.error.code, error: result.error.message });
    return undefined;
  }
  const server = result.value;
  if (tempDir) server.tempDir = tempDir;
  ctx.log('info', 'server_started', { pid: server.pid, path: launcher, ...(ctx.sandbox ? { network: ctx.sandbox.network } : {}) });
  if (ctx.sandbox?.network === 'unavailable') ctx.log('warn', 'server_network_not_isolated', { why: ctx.sandbox.why });
  logServerStderr(server.child.stderr, ctx.logger, { stream: ctx.streamId, language: language.id }, STDERR_BUDGET_BYTES);
  return server;
}

/**
 * Reaps the server's whole tree (SIGTERM, `graceMs`, SIGKILL) and logs how that went; never rejects.
 * Resolves true when nothing of the tree runs any more.
 */
export function reapServerTree(ctx: ServerProcessContext, server: LaunchedServer, graceMs: number): Promise<boolean> {
  return reapTree(server, { graceMs }).then(
    (report) => {
      const clean = report.survivors.length === 0;
      // Only with the whole tree gone: a survivor may still be writing there.
      if (clean) removeTempDir(ctx, server.tempDir);
      ctx.log(clean ? 'info' : 'error', clean ? 'reap_done' : 'reap_incomplete', {
        pid: server.pid,
        descendants: report.descendants,
        killed: report.killed,
        survivors: report.survivors.length,
      });
      return clean;
    },
    (err) => {
      ctx.log('error', 'reap_incomplete', { pid: server.pid, ...errorFields(err) });
      return false;
    },
  );
}

/**
 * A temporary folder of the server's own, given as its TMPDIR and removed once its tree is reaped:
 * servers leave things in the temporary folder and not all of them clean up (typescript-language-
 * server leaves a folder for each tsserver it starts, two per start), which on a task host that
 * runs for weeks adds up. Made under the task's TMPDIR when it has one. None on Windows (TEMP and TMP
 * are left as the task has them; nothing here runs a server on Windows to prove otherwise), and none
 * when it cannot be made: the server then gets the task's, as before.
 */
function ownTempDir(ctx: ServerProcessContext): string | undefined {
  if (isWindows(ctx.platform)) return undefined;
  try {
    return mkdtempSync(join(envValue(ctx.env, 'TMPDIR', ctx.platform) ?? tmpdir(), 'kandev-lsp-'));
  } catch (err) {
    ctx.log('warn', 'server_tmp_failed', errorFields(err));
    return undefined;
  }
}

/** Never throws: a folder that cannot go (a file another user made there) is logged and left. */
function removeTempDir(ctx: ServerProcessContext, dir: string | undefined): void {
  if (!dir) return;
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
  } catch (err) {
    ctx.log('warn', 'server_tmp_failed', { path: dir, ...errorFields(err) });
  }
}

/** Why an absolute command cannot be executed (EACCES, ENOENT), or undefined when it can be. */
function cannotExecute(command: string): NodeJS.ErrnoException | undefined {
  if (!isAbsolute(command)) return undefined;
  try {
    accessSync(command, constants.X_OK);
    return undefined;
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}
