import { spawn, type ChildProcess } from 'node:child_process';
import { type Clock, type Disposable, after, systemClock } from '@kandev/kit';
import { RotatingFile, waitForListening } from '@kandev/node-transport';
import type { TaskHostExit } from './executor.js';
import { fail, messageOf, ok, type Result } from '../base/result.js';

export interface AgentctlSpawnOptions {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /**
   * agentctl's log: it writes its JSON lines here itself (AGENTCTL_LOG_FILE), and whatever it still
   * says on stderr (a crash before its logger exists) is appended here by this backend.
   */
  logFile: string;
  /** The log file past this moves to `.1` (default DEFAULT_LOG_MAX_BYTES). */
  logMaxBytes?: number;
  startTimeoutMs: number;
  /** Times the listening wait and the stop's grace period; tests pass a ManualClock. */
  clock?: Clock;
}

export interface AgentctlProcess {
  pid: number;
  port: number;
  exited: Promise<Omit<TaskHostExit, 'requested'>>;
  /** SIGTERM, then after `graceMs` SIGKILL to the whole process group; settles once reaped. */
  stop(graceMs: number): Promise<{ escalated: boolean }>;
}

/** Bytes of stderr kept in memory to explain an agentctl that dies before it listens. */
const STDERR_TAIL_BYTES = 1024;
const canKillGroups = process.platform !== 'win32';

/**
 * Starts agentctl and waits for its one `{"event":"listening","port":N}` stdout line. The child is
 * a process-group leader so a stop that has to escalate kills whatever it left behind, too. Its
 * stdin stays an open pipe: if the backend dies, agentctl sees end-of-file and can shut down.
 */
export async function spawnAgentctl(options: AgentctlSpawnOptions): Promise<Result<AgentctlProcess, string>> {
  const [command, ...args] = options.argv;
  if (!command) return fail('empty agentctl command');
  // Bounded, and a file that cannot be written (disk full, folder removed) never takes the backend down.
  const log = new RotatingFile(options.logFile, { maxBytes: options.logMaxBytes });
  let child: ChildProcess;
  try {
    child = spawn(command === 'node' ? process.execPath : command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: canKillGroups,
    });
  } catch (err) {
    void log.end();
    return fail(`cannot start agentctl: ${messageOf(err)}`);
  }
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  const exited = new Promise<Omit<TaskHostExit, 'requested'>>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A spawn that failed outright (ENOENT, EACCES) emits only 'error': there is nothing to reap.
    child.once('error', () => {
      if (child.pid === undefined) resolve({ code: null, signal: null });
    });
  });
  void exited.then(() => {
    child.stdin?.destroy();
    void log.end();
  });
  const clock = options.clock ?? systemClock;
  const port = await listened(child, options.startTimeoutMs, clock);
  if (!port.ok) {
    await terminate(child, exited, 0, clock);
    const tail = stderrTail.trim().split('\n').slice(-3).join(' | ');
    return fail(tail ? `${port.error}; agentctl said: ${tail}` : port.error);
  }
  const pid = child.pid as number;
  let stopping: Promise<{ escalated: boolean }> | undefined;
  return ok({
    pid,
    port: port.value,
    exited,
    stop: (graceMs) => (stopping ??= terminate(child, exited, graceMs, clock)),
  });
}

/** The listening line's port, or why there is none: the line's wait raced against the child's end. */
async function listened(child: ChildProcess, timeoutMs: number, clock: Clock): Promise<Result<number, string>> {
  const wait = waitForListening(child.stdout!, timeoutMs, clock);
  const ended = new Promise<Result<number, string>>((resolve) => {
    child.once('error', (err) => resolve(fail(`cannot start agentctl: ${messageOf(err)}`)));
    child.once('exit', (code, signal) => resolve(fail(`agentctl exited before listening (${signal ?? `code ${code}`})`)));
  });
  const listening = wait.outcome.then((outcome): Result<number, string> =>
    outcome.kind === 'listening' ? ok(outcome.port) : fail(`agentctl did not report listening within ${timeoutMs} ms`),
  );
  const result = await Promise.race([listening, ended]);
  wait.dispose();
  return result;
}

async function terminate(child: ChildProcess, exited: Promise<unknown>, graceMs: number, clock: Clock): Promise<{ escalated: boolean }> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  let graceTimer: Disposable | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    graceTimer = after(clock, graceMs, () => resolve('timeout'));
  });
  const outcome = await Promise.race([exited.then(() => 'exited' as const), graceOver]);
  graceTimer?.dispose();
  if (outcome === 'timeout') {
    killGroup(child, 'SIGKILL');
    if (!canKillGroups) child.kill('SIGKILL');
    await exited;
  }
  // Whatever agentctl left in its group (it should have reaped everything) goes with it. A group
  // id stays reserved while any member lives; an empty group just answers ESRCH.
  killGroup(child, 'SIGKILL');
  return { escalated: outcome === 'timeout' };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!canKillGroups || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}
