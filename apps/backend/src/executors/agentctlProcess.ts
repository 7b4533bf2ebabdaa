import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseListeningLine } from '@kandev/protocol';
import type { TaskHostExit } from './executor.js';
import { fail, messageOf, ok, type Result } from '../result.js';

export interface AgentctlSpawnOptions {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** agentctl's stderr (its JSON logs) is appended here; task-host detail stays in these logs. */
  logFile: string;
  startTimeoutMs: number;
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
  const log = createWriteStream(options.logFile, { flags: 'a', mode: 0o600 });
  // A log file that cannot be written (disk full, folder removed) must never take the backend down.
  log.on('error', () => undefined);
  let child: ChildProcess;
  try {
    child = spawn(command === 'node' ? process.execPath : command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: canKillGroups,
    });
  } catch (err) {
    log.end();
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
    closeLog(log);
  });
  const port = await waitForListening(child, options.startTimeoutMs);
  if (!port.ok) {
    await terminate(child, exited, 0);
    const tail = stderrTail.trim().split('\n').slice(-3).join(' | ');
    return fail(tail ? `${port.error}; agentctl said: ${tail}` : port.error);
  }
  const pid = child.pid as number;
  let stopping: Promise<{ escalated: boolean }> | undefined;
  return ok({
    pid,
    port: port.value,
    exited,
    stop: (graceMs) => (stopping ??= terminate(child, exited, graceMs)),
  });
}

function closeLog(log: WriteStream): void {
  if (!log.writableEnded) log.end();
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<Result<number, string>> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: child.stdout! });
    let settled = false;
    const settle = (result: Result<number, string>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Keep draining stdout after the handshake so a chatty agentctl never blocks on a full pipe.
      lines.removeAllListeners('line');
      lines.on('line', () => undefined);
      resolve(result);
    };
    const timer = setTimeout(() => settle(fail(`agentctl did not report listening within ${timeoutMs} ms`)), timeoutMs);
    lines.on('line', (line) => {
      const port = parseListeningLine(line);
      if (port !== undefined) settle(ok(port));
    });
    child.once('error', (err) => settle(fail(`cannot start agentctl: ${messageOf(err)}`)));
    child.once('exit', (code, signal) => settle(fail(`agentctl exited before listening (${signal ?? `code ${code}`})`)));
  });
}

async function terminate(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<{ escalated: boolean }> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  const outcome = await Promise.race([exited.then(() => 'exited' as const), graceOver]);
  clearTimeout(timer);
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
