import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { type Clock, after, systemClock } from '@kandev/kit';
import { childProcessRoot, markedEnv, newTreeMarker, reapTree } from '../process/reapTree.js';
import type { TaskEnv } from '../env/taskEnv.js';
import type { OutputTail } from './output.js';

export type SpawnFn = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export interface InstallerCommand {
  command: string;
  args: readonly string[];
  /** The task env (with the installer's overrides): the process gets it without AGENTCTL_* and with its tree marker. */
  env: TaskEnv;
  /** Host path. */
  cwd?: string;
  windowsVerbatimArguments?: boolean;
}

export interface RunOptions {
  spawn: SpawnFn;
  signal: AbortSignal;
  output: OutputTail;
  /** An installer that hangs (a stalled registry) is ended and reported, not waited on forever. */
  deadlineMs: number;
  /** Keep stdout (bounded) for the caller instead of treating it as progress (e.g. `go env -json`). */
  captureStdout?: boolean;
  /** Times the deadline and the pipes' close grace (systemClock unless a test passes a ManualClock). */
  clock?: Clock;
}

export type RunResult =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; stdout: string }
  | { kind: 'cancelled' }
  | { kind: 'timed_out' }
  | { kind: 'spawn_failed'; message: string };

const MAX_CAPTURED_STDOUT = 64 * 1024;
/** After the tree is gone the pipes close at once; this only bounds a pathological escapee holding them. */
const PIPE_CLOSE_GRACE_MS = 2_000;

/**
 * Runs one installer process as the leader of its own process group, marked with its own tree marker,
 * and always ends with no descendant of it running (reapTree, without a grace period: an installer's
 * work is discarded anyway): on abort or deadline the tree is killed, and after a normal exit any
 * straggler the installer left behind (a daemonized helper) is killed too.
 */
export function runInstaller(cmd: InstallerCommand, options: RunOptions): Promise<RunResult> {
  if (options.signal.aborted) return Promise.resolve({ kind: 'cancelled' });
  const marker = newTreeMarker();
  let child: ChildProcess;
  try {
    child = options.spawn(cmd.command, cmd.args, {
      env: markedEnv(cmd.env, marker),
      cwd: cmd.cwd,
      // Own process group on POSIX, so one signal reaches every descendant that did not setsid.
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      windowsVerbatimArguments: cmd.windowsVerbatimArguments ?? false,
    });
  } catch (err) {
    return Promise.resolve({ kind: 'spawn_failed', message: errorMessage(err) });
  }

  const clock = options.clock ?? systemClock;
  return new Promise<RunResult>((resolve) => {
    let stopReason: 'cancelled' | 'timed_out' | undefined;
    let stopping: Promise<unknown> = Promise.resolve();
    const reap = () => (child.pid === undefined ? Promise.resolve() : reapTree(childProcessRoot(child, marker), { graceMs: 0 }));
    let stdout = '';
    let settled = false;
    const finish = (result: RunResult) => {
      if (settled) return;
      settled = true;
      deadline.dispose();
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const stop = (reason: 'cancelled' | 'timed_out') => {
      if (stopReason) return;
      stopReason = reason;
      stopping = reap();
    };
    const onAbort = () => stop('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });
    const deadline = after(clock, options.deadlineMs, () => stop('timed_out'));

    child.stdout?.on('data', (chunk: Buffer) => {
      if (options.captureStdout) {
        if (stdout.length < MAX_CAPTURED_STDOUT) stdout += chunk.toString('utf8');
      } else options.output.push('stdout', chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => options.output.push('stderr', chunk));

    child.once('error', (err) => {
      // Emitted without 'exit' when the process never started (ENOENT, EACCES).
      if (child.pid === undefined) finish({ kind: 'spawn_failed', message: errorMessage(err) });
    });
    child.once('exit', (code, sig) => {
      void (async () => {
        await stopping;
        await reap();
        await pipesClosed(child, clock);
        options.output.flush();
        if (stopReason) finish({ kind: stopReason });
        else finish({ kind: 'exited', code, signal: sig, stdout });
      })();
    });
  });
}

function pipesClosed(child: ChildProcess, clock: Clock): Promise<void> {
  if (child.stdout?.closed !== false && child.stderr?.closed !== false) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = after(clock, PIPE_CLOSE_GRACE_MS, () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve();
    });
    child.once('close', () => {
      timer.dispose();
      resolve();
    });
  });
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return `${err.message}${detail}`;
  }
  return String(err);
}

/** "exit code 1" / "killed by SIGSEGV": how a run ended, for a failure summary. */
export function describeExit(result: Extract<RunResult, { kind: 'exited' }>): string {
  return result.signal ? `was killed by ${result.signal}` : `exited with code ${String(result.code)}`;
}
