import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type Docker from 'dockerode';
import type { AdoptRequest, ExecutorError, StartRequest, TaskHost, TaskHostExecutor, TaskHostExit } from './executor.js';
import { adoptDockerTaskHost } from './docker/adoptContainer.js';
import { isDirectory } from '../base/fsChecks.js';
import type { Logger } from '../base/log.js';
import { fail, ok, type Result } from '../base/result.js';
import { AgentctlClient } from '../taskhost/agentctlClient.js';
import { BackendLink } from '../taskhost/backendLink.js';
import { createDockerClient } from './docker/dockerClient.js';
import type { DockerConfig } from './docker/dockerConfig.js';
import { dockerFailure, toExecutorError, type DockerError } from './docker/dockerErrors.js';
import { startDockerTaskHost } from './docker/dockerTaskHost.js';
import { TASK_IMAGE_KEY } from './docker/containerEnv.js';
import { removeLeftoverContainers } from './docker/leftoverContainers.js';
import { runtimeMounts, type RuntimeMount, type RuntimeSources } from './docker/runtimeMounts.js';

/**
 * The backend settings local_docker reads: a structural part of BackendConfig (config.ts), named
 * here so executors/ never imports config.ts (which imports executors/docker for its settings).
 */
export interface LocalDockerSettings {
  home: string;
  agentctlBundle: string;
  agentctlStartTimeoutMs: number;
  agentctlStopGraceMs: number;
  restartGraceMs?: number;
  docker: DockerConfig;
}

export interface LocalDockerOptions {
  docker: Docker;
  /** Default image, network mode and extra mounts (KANDEV_DOCKER_*). */
  config: DockerConfig;
  runtime: RuntimeSources;
  /** Identifies this backend's containers (its KANDEV_HOME) for the leftover sweep. */
  owner: string;
  startTimeoutMs: number;
  stopGraceMs: number;
  /** Per-session agentctl logs go here, each bounded by `logMaxBytes`. */
  logDir: string;
  logMaxBytes?: number;
  /** How long a task container outlives this backend for the next one to re-adopt it (0: not at all). */
  restartGraceMs?: number;
  log: Logger;
}

/**
 * Local Docker: one container per session, agentctl inside it, so everything agentctl resolves,
 * installs and launches runs with the container's OS and environment. The backend reaches it on
 * 127.0.0.1 (published port or host networking) with a fresh token per session.
 */
export class LocalDockerExecutor implements TaskHostExecutor {
  readonly kind = 'local_docker' as const;
  private swept: Promise<number> | undefined;

  constructor(private readonly options: LocalDockerOptions) {}

  /** The backend's executor; it starts removing a crashed predecessor's containers right away. */
  static fromConfig(config: LocalDockerSettings, deps: { logDir: string; logMaxBytes?: number; log: Logger }): LocalDockerExecutor {
    const executor = new LocalDockerExecutor({
      docker: createDockerClient(config.docker.host),
      config: config.docker,
      runtime: { supportDir: join(config.home, 'docker-runtime'), nodeBinary: process.execPath, agentctlBundle: config.agentctlBundle },
      owner: config.home,
      startTimeoutMs: config.agentctlStartTimeoutMs,
      stopGraceMs: config.agentctlStopGraceMs,
      logDir: deps.logDir,
      logMaxBytes: deps.logMaxBytes,
      ...(config.restartGraceMs !== undefined ? { restartGraceMs: config.restartGraceMs } : {}),
      log: deps.log,
    });
    return executor;
  }

  /**
   * Removes the containers an earlier process of this backend (same owner) left running, except
   * those re-adopted (`keep`); the others' sessions are already marked stopped. Called once at
   * start-up after re-adoption; every start waits for it before creating.
   */
  removeLeftovers(keep: ReadonlySet<string> = new Set()): Promise<number> {
    return (this.swept ??= removeLeftoverContainers(this.options.docker, this.options.owner, undefined, keep));
  }

  async adopt({ sessionId, record }: AdoptRequest): Promise<Result<TaskHost, ExecutorError>> {
    if (record.kind !== 'local_docker' || record.containerId === undefined) return fail({ code: 'unreachable', message: 'no Local Docker task host recorded' });
    const adopted = await adoptDockerTaskHost(this.options.docker, {
      containerId: record.containerId,
      owner: this.options.owner,
      stopGraceMs: this.options.stopGraceMs,
      logFile: join(this.options.logDir, `agentctl-${sessionId}.log`),
      logMaxBytes: this.options.logMaxBytes,
    });
    if (!adopted.ok) return fail(toExecutorError(adopted.error));
    const host = adopted.value;
    const endpoint = { baseUrl: `http://127.0.0.1:${record.port}`, token: record.token };
    const health = await new AgentctlClient(endpoint).health(this.options.startTimeoutMs);
    const link = health.ok ? await BackendLink.open(endpoint) : undefined;
    if (!health.ok || !link?.ok) {
      // Its container, but not reachable with our token: nobody can use it; it goes.
      await host.stop();
      return fail({ code: 'unreachable', message: health.ok ? (link && !link.ok ? link.error : 'no link') : health.error });
    }
    let requested = false;
    const exited = host.exited.then(({ code }): TaskHostExit => ({ code, signal: null, requested }));
    const stop = async (): Promise<TaskHostExit> => {
      requested = true;
      await host.stop();
      return exited;
    };
    const { workspacePath, workspaceUri, repoSubpaths } = health.value;
    return ok({ endpoint, record, pid: undefined, exited, stop, workspace: { workspacePath, workspaceUri, repoSubpaths } });
  }

  async start(request: StartRequest): Promise<Result<TaskHost, ExecutorError>> {
    const started = await this.startContainer(request);
    return started.ok ? started : fail(toExecutorError(started.error));
  }

  private async startContainer({ sessionId, task }: StartRequest): Promise<Result<TaskHost, DockerError>> {
    const image = task.env[TASK_IMAGE_KEY] || this.options.config.image;
    if (!image)
      return fail(
        dockerFailure('image_not_configured', `no Docker image for this task: set KANDEV_DOCKER_IMAGE for the backend, or ${TASK_IMAGE_KEY} in the task's env`),
      );
    const mounts = this.mounts(task.repositories.map((r) => r.path));
    if (!mounts.ok) return mounts;
    // Never sweep after this backend's own first container exists.
    await this.removeLeftovers();
    const token = randomBytes(32).toString('hex');
    const network = this.options.config.network;
    const repositories = task.repositories.map((r) => resolve(r.path));
    const container = await startDockerTaskHost(this.options.docker, {
      spec: {
        image,
        sessionId,
        owner: this.options.owner,
        token,
        repositories,
        taskEnv: task.env,
        network,
        seccomp: this.options.config.seccomp,
        mounts: mounts.value,
        ...(this.options.restartGraceMs ? { orphanGraceMs: this.options.restartGraceMs } : {}),
      },
      startTimeoutMs: this.options.startTimeoutMs,
      stopGraceMs: this.options.stopGraceMs,
      logFile: join(this.options.logDir, `agentctl-${sessionId}.log`),
      logMaxBytes: this.options.logMaxBytes,
    });
    if (!container.ok) return container;
    const host = container.value;
    const endpoint = { baseUrl: `http://127.0.0.1:${host.port}`, token };
    let requested = false;
    const exited = host.exited.then(({ code }): TaskHostExit => ({ code, signal: null, requested }));
    const stop = async (): Promise<TaskHostExit> => {
      requested = true;
      const { escalated } = await host.stop();
      if (escalated) this.options.log.warn('task_host_kill_escalated', { sessionId });
      return exited;
    };
    // The listening line proves a port; health proves it is our agentctl (our token works) and
    // reports the workspace as the container sees it (/workspace), before the session runs.
    const health = await new AgentctlClient(endpoint).health(this.options.startTimeoutMs);
    if (!health.ok) {
      await stop();
      return fail(dockerFailure('unreachable', health.error));
    }
    const { workspacePath, workspaceUri, repoSubpaths } = health.value;
    const record = { kind: 'local_docker' as const, port: host.port, token, containerId: host.containerId };
    return ok({ endpoint, record, pid: undefined, exited, stop, workspace: { workspacePath, workspaceUri, repoSubpaths } });
  }

  /** Every bind source checked before Docker sees it: a missing one must be an error, not a new folder. */
  private mounts(repositories: string[]): Result<RuntimeMount[], DockerError> {
    if (repositories.length === 0) return fail(dockerFailure('mount_missing', 'a task needs at least one repository'));
    for (const path of repositories) {
      if (!isDirectory(path)) return fail(dockerFailure('mount_missing', `repository folder is missing: ${path}`));
    }
    for (const { hostPath } of this.options.config.mounts) {
      if (!existsSync(hostPath)) return fail(dockerFailure('mount_missing', `KANDEV_DOCKER_MOUNTS source is missing: ${hostPath}`));
    }
    const runtime = runtimeMounts(this.options.runtime);
    if (!runtime.ok) return fail(dockerFailure('runtime_missing', runtime.error));
    return ok([...runtime.value, ...this.options.config.mounts]);
  }
}
