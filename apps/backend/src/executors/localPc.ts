import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ExecutorError, StartRequest, TaskHost, TaskHostExecutor, TaskHostExit } from './executor.js';
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
    const spawned = await spawnAgentctl({
      argv: this.options.agentctlCommand,
      env: { ...taskHostEnvironment(this.options.backendEnv, task.env, { token, workspacePath, repoSubpaths }), [TASK_HOST_MARKER_VARIABLE]: marker },
      cwd: this.options.cwd,
      logFile: join(this.options.logDir, `agentctl-${sessionId}.log`),
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
    return ok({ endpoint, pid: agentctl.pid, exited, stop, workspace: { workspacePath: reportedPath, workspaceUri, repoSubpaths: reportedRepos } });
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
 * Start-up sweep: kills every process carrying this owner's marker. A new backend has no task host
 * yet, so each such process was left by a previous backend of the same KANDEV_HOME (and its agentctl)
 * that died without reaping.
 */
export async function sweepOrphanedTrees(owner: string, log: Logger): Promise<void> {
  const report = await killMarked(ownerMatch(owner));
  if (report.found === 0) return;
  const fields = { found: report.found, survivors: report.survivors.length };
  if (report.survivors.length > 0) log.error('task_host_orphans_survived', fields);
  else log.warn('task_host_orphans_reaped', fields);
}
