import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Result } from '../base/result.js';
import type { TaskEnv } from '../env/taskEnv.js';
import type { LaunchCommand } from './launchCommand.js';
import { markedEnv } from './reapTree.js';

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A running language server: the process, its tree marker, and a promise of its exit. */
export interface LaunchedServer {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  marker: string;
  exited: Promise<ExitInfo>;
  hasExited(): boolean;
  /** The server's own temporary folder (its TMPDIR), removed with its tree (stream/serverProcess.ts). */
  tempDir?: string;
}

/** Why a server did not start: the spawn error's code (ENOENT, EACCES, ...) and its message. */
export interface LaunchError {
  code: string;
  message: string;
}

export type LaunchResult = Result<LaunchedServer, LaunchError>;

export interface LaunchRequest {
  command: LaunchCommand;
  cwd: string;
  /** The task env; the server gets it without AGENTCTL_* and with the tree marker (markedEnv). */
  env: TaskEnv;
  marker: string;
}

/**
 * Spawns a server in its own session and process group (detached), so agentctl can signal the
 * group and the server never gets agentctl's terminal signals. Resolves once the process really
 * started (`spawn`) or failed to (`error`: ENOENT, EACCES, ...), never both.
 */
export function launchServer(req: LaunchRequest): Promise<LaunchResult> {
  return new Promise((resolve) => {
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(req.command.command, req.command.args, {
        cwd: req.cwd,
        env: markedEnv(req.env, req.marker),
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
        windowsVerbatimArguments: req.command.windowsVerbatimArguments,
      });
    } catch (err) {
      // Synchronous failures (EINVAL for bad arguments) are launch failures too.
      const e = err as NodeJS.ErrnoException;
      resolve({ ok: false, error: { code: e.code ?? 'spawn_error', message: e.message } });
      return;
    }
    let exitInfo: ExitInfo | undefined;
    const exited = new Promise<ExitInfo>((done) => {
      child.once('exit', (code, signal) => {
        exitInfo = { code, signal };
        done(exitInfo);
      });
    });
    const onError = (err: NodeJS.ErrnoException) => {
      child.removeListener('spawn', onSpawn);
      resolve({ ok: false, error: { code: err.code ?? 'spawn_error', message: err.message } });
    };
    const onSpawn = () => {
      child.removeListener('error', onError);
      // Later errors (e.g. a kill on an exited process) must not become uncaught exceptions.
      child.on('error', () => {});
      const pid = child.pid as number;
      resolve({ ok: true, value: { child, pid, marker: req.marker, exited, hasExited: () => exitInfo !== undefined } });
    };
    child.once('error', onError);
    child.once('spawn', onSpawn);
  });
}
