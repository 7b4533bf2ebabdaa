import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { AdoptRequest, ExecutorError, StartRequest, TaskHost, TaskHostExecutor, TaskHostExit } from './executor.js';
import { processIdentity, signalHostGroup, waitUntilGone } from './processIdentity.js';
import { BackendLink } from '../taskhost/backendLink.js';
import type { KeepaliveTiming } from '@kandev/node-transport';
import { spawnAgentctl } from './agentctlProcess.js';
import { killMarked } from './markedProcesses.js';
import { instanceMatch, newTaskHostMarker, ownerMatch, TASK_HOST_MARKER_VARIABLE } from './taskHostMarker.js';
import { taskHostEnvironment } from './taskEnvironment.js';
import { localWorkspaceLayout } from './workspaceLayout.js';
import type { Logger } from '../base/log.js';
import { fail, ok, type Result } from '../base/result.js';
import { AgentctlClient } from '../taskhost/agentctlClient.js';
import { isDirectory } from '../base/fsChecks.js';

export interface LocalPcOptions {
  agentctlCommand: string[];
  startTimeoutMs: number;
  stopGraceMs: number;
  /** Per-session agentctl logs go here, each bounded by `logMaxBytes`. */
  logDir: string;
  logMaxBytes?: number;
  /** The agentctl process runs here; its workspace comes from AGENTCTL_WORKSPACE, not its cwd. */
  cwd: string;
  backendEnv: Record<string, string | undefined>;
  /** ownerTag(KANDEV_HOME): every process of this backend's task hosts carries it (taskHostMarker.ts). */
  owner: string;
  /** How long agentctl outlives this backend for the next one to re-adopt it (0: it stops with it). */
  restartGraceMs?: number;
  /** Pings on the link to a re-adopted agentctl. */
  keepalive?: KeepaliveTiming;
  log: Logger;
}

/** Local PC: agentctl is a child process of the backend, one per session, with a fresh token. */
export class LocalPcExecutor implements TaskHostExecutor {
  readonly kind = 'local_pc' as const;

  constructor(private readonly options: LocalPcOptions) {}

  async start({ sessionId, task }: StartRequest): Promise<Result<TaskHost, ExecutorError>> {
    const layout = localWorkspaceLayout(task.repositories);
    if (!layout.ok) return fail({ code: 'workspace_invalid', message: layout.error });
    for (const { path } of task.repositories) {
      if (!isDirectory(path)) return fail({ code: 'workspace_invalid', message: `repository folder is missing: ${path}` });
    }
    const token = randomBytes(32).toString('hex');
    const { workspacePath, repoSubpaths } = layout.value;
    const marker = newTaskHostMarker(this.options.owner);
    // agentctl writes this file itself, not through a pipe to this backend, so its log goes on
    // after a restart when the next backend re-adopts it.
    const logFile = resolve(this.options.logDir, `agentctl-${sessionId}.log`);
    const spawned = await spawnAgentctl({
      argv: this.options.agentctlCommand,
      env: {
        ...taskHostEnvironment(this.options.backendEnv, task.env, {
          token,
          workspacePath,
          repoSubpaths,
          orphanGraceMs: this.options.restartGraceMs ?? 0,
          logFile,
          ...(this.options.logMaxBytes ? { logMaxBytes: this.options.logMaxBytes } : {}),
        }),
        [TASK_HOST_MARKER_VARIABLE]: marker,
      },
      cwd: this.options.cwd,
      logFile,
      logMaxBytes: this.options.logMaxBytes,
      startTimeoutMs: this.options.startTimeoutMs,
    });
    if (!spawned.ok) {
      await this.reapLeftovers(sessionId, marker);
      return fail({ code: 'start_failed', message: spawned.error });
    }
    const agentctl = spawned.value;
    const endpoint = { baseUrl: `http://127.0.0.1:${agentctl.port}`, token };
    let requested = false;
    // The task host is over only when nothing it started runs any more: agentctl reaps its trees
    // on every orderly exit, and whatever a killed agentctl left behind is reaped here.
    const exited = agentctl.exited.then(async (exit) => {
      await this.reapLeftovers(sessionId, marker);
      return { ...exit, requested };
    });
    const stop = async (): Promise<TaskHostExit> => {
      requested = true;
      const { escalated } = await agentctl.stop(this.options.stopGraceMs);
      if (escalated) this.options.log.warn('task_host_kill_escalated', { sessionId, pid: agentctl.pid });
      return exited;
    };
    // The listening line proves a port; health proves it is agentctl, our token works and where
    // its workspace is, before the session is shown as running.
    const health = await new AgentctlClient(endpoint).health(this.options.startTimeoutMs);
    if (!health.ok) {
      await stop();
      return fail({ code: 'unreachable', message: health.error });
    }
    const { workspacePath: reportedPath, workspaceUri, repoSubpaths: reportedRepos } = health.value;
    const identity = processIdentity(agentctl.pid);
    const record = identity ? { kind: 'local_pc' as const, port: agentctl.port, token, pid: agentctl.pid, identity, marker } : undefined;
    return ok({
      endpoint,
      ...(record ? { record } : {}),
      pid: agentctl.pid,
      exited,
      stop,
      workspace: { workspacePath: reportedPath, workspaceUri, repoSubpaths: reportedRepos },
    });
  }

  /**
   * Re-adopts an agentctl a previous backend of this home started: the recorded process must be
   * that very one (pid and start time), answer with the recorded token, and take this backend's
   * link. It is not our child: its end is seen as the link closing, then proven in /proc.
   */
  async adopt({ sessionId, record }: AdoptRequest): Promise<Result<TaskHost, ExecutorError>> {
    const { pid, identity, marker } = record;
    if (record.kind !== 'local_pc' || pid === undefined || identity === undefined || marker === undefined) {
      return fail({ code: 'unreachable', message: 'no Local PC task host recorded' });
    }
    if (processIdentity(pid) !== identity) return fail({ code: 'unreachable', message: 'the recorded agentctl is gone' });
    const endpoint = { baseUrl: `http://127.0.0.1:${record.port}`, token: record.token };
    const health = await new AgentctlClient(endpoint).health(this.options.startTimeoutMs);
    if (!health.ok) return fail({ code: 'unreachable', message: health.error });
    const link = await BackendLink.open(endpoint, this.options.keepalive);
    if (!link.ok) return fail({ code: 'unreachable', message: link.error });
    let requested = false;
    const graceMs = this.options.stopGraceMs;
    const exited = link.value.closed.then(async (): Promise<TaskHostExit> => {
      // The link closes as agentctl exits; one that lingers (hung) is ended like a stop that escalates.
      if (!(await waitUntilGone(pid, identity, graceMs))) {
        this.options.log.warn('task_host_kill_escalated', { sessionId, pid });
        signalHostGroup(pid, identity, 'SIGKILL');
        await waitUntilGone(pid, identity, graceMs);
      }
      await this.reapLeftovers(sessionId, marker);
      return { code: null, signal: null, requested };
    });
    const stop = async (): Promise<TaskHostExit> => {
      requested = true;
      signalHostGroup(pid, identity, 'SIGTERM');
      return exited;
    };
    const { workspacePath, workspaceUri, repoSubpaths } = health.value;
    return ok({ endpoint, record, pid, exited, stop, workspace: { workspacePath, workspaceUri, repoSubpaths } });
  }

  /** Kills every process still carrying this agentctl's marker (none after an orderly exit). */
  private async reapLeftovers(sessionId: string, marker: string): Promise<void> {
    const report = await killMarked(instanceMatch(marker));
    if (report.found === 0) return;
    const fields = { sessionId, found: report.found, survivors: report.survivors.length };
    if (report.survivors.length > 0) this.options.log.error('task_host_orphans_survived', fields);
    else this.options.log.warn('task_host_orphans_reaped', fields);
  }
}

/**
 * Start-up sweep: kills every process carrying this owner's marker except the task hosts this
 * backend re-adopted. Each such process was left by a previous backend of the same KANDEV_HOME (and
 * its agentctl) that died without reaping.
 */
export async function sweepOrphanedTrees(owner: string, log: Logger, adopted: ReadonlySet<string> = new Set()): Promise<void> {
  // Re-adopted task hosts keep their trees: only what nobody owns any more is killed.
  const owned = ownerMatch(owner);
  const report = await killMarked((value) => owned(value) && !adopted.has(value));
  if (report.found === 0) return;
  const fields = { found: report.found, survivors: report.survivors.length };
  if (report.survivors.length > 0) log.error('task_host_orphans_survived', fields);
  else log.warn('task_host_orphans_reaped', fields);
}
