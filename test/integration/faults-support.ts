/**
 * Support for the fault suite (faults-*.test.ts): the backend as users run it (the bundle, through
 * test/support/stack.ts) so its memory can be read from /proc, tasks whose `kotlin-lsp` is the
 * scriptable fake server, and the backend's JSON log lines as events to wait for.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AGENTCTL_ENV } from '@kandev/protocol';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { installFakeServer, writeScript } from '../support/fakeServer.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { childPids } from './backend-support.js';

export type LogLine = Record<string, unknown> & { event?: string };

/** The bundled backend, with every JSON log line it writes on stderr kept and observable. */
export interface FaultStack extends RunningStack {
  logs: LogLine[];
  /** Resolves with the first log line (already written or still to come) that matches. */
  nextLog(match: (line: LogLine) => boolean, after?: number): Promise<LogLine>;
}

export async function startFaultStack(env: Record<string, string> = {}): Promise<FaultStack> {
  const stack = await startStack(env);
  const logs: LogLine[] = [];
  let waiters: { match: (l: LogLine) => boolean; after: number; resolve: (l: LogLine) => void }[] = [];
  createInterface({ input: stack.process.stderr! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return;
    }
    logs.push(line);
    const index = logs.length - 1;
    waiters = waiters.filter((w) => (index >= w.after && w.match(line) ? (w.resolve(line), false) : true));
  });
  return Object.assign(stack, {
    logs,
    nextLog(match: (line: LogLine) => boolean, after = 0): Promise<LogLine> {
      const seen = logs.slice(after).find(match);
      return seen ? Promise.resolve(seen) : new Promise<LogLine>((resolve) => waiters.push({ match, after, resolve }));
    },
  });
}

export interface FaultTask {
  taskId: string;
  sessionId: string;
  dir: string;
  workspace: string;
  logFile: string;
  remove(): void;
}

/** A Local PC task whose `kotlin-lsp` (or `binaries`) is the fake server running `script`, with a running session. */
export async function fakeTask(stack: RunningStack, script: FakeScript, name = 'task', binaries: string[] = ['kotlin-lsp']): Promise<FaultTask> {
  const dir = mkdtempSync(join(tmpdir(), `kandev-faults-${name}-`));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'Main.kt'), 'fun main() = println("hi")\n');
  const bin = join(dir, 'bin');
  for (const binary of binaries) installFakeServer(bin, binary);
  const logFile = join(dir, 'server.jsonl');
  const task = await stack.createTask({
    title: name,
    workspace,
    env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: writeScript(dir, script), FAKE_LSP_LOG: logFile },
  });
  const session = await stack.startSession(task.id);
  return { taskId: task.id, sessionId: session.id, dir, workspace, logFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The agentctl process the backend started for a task whose workspace is `workspace`. */
export function agentctlPidFor(backendPid: number, workspace: string): number | undefined {
  return childPids(backendPid, 'agentctl').find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${AGENTCTL_ENV.workspace}=${workspace}`);
    } catch {
      return false;
    }
  });
}
