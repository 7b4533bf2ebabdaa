import type { ExecutorKind, Task, WorkspaceIdentity } from '@kandev/protocol';
import type { Result } from '../base/result.js';

/** Defined with its client (taskhost/), which must not import the executors that start task hosts. */
import type { TaskHostEndpoint } from '../taskhost/endpoint.js';

export type { TaskHostEndpoint };

export interface TaskHostExit {
  code: number | null;
  signal: string | null;
  /** True when Kandev asked it to stop; false when it died on its own. */
  requested: boolean;
}

/**
 * What a later backend needs to find and re-adopt a running task host after a restart (kept in
 * SQLite, a 0600 file, never in argv): where it listens, its per-instance token, and who it is
 * (the agentctl process by pid and start time, or the container), so nothing else is ever adopted.
 */
export interface TaskHostRecord {
  kind: 'local_pc' | 'local_docker';
  port: number;
  token: string;
  /** local_pc: the agentctl process, its identity (boot id + start time) and its trees' marker. */
  pid?: number;
  identity?: string;
  marker?: string;
  /** local_docker: the task container. */
  containerId?: string;
}

/** One running task host: the agentctl of one session, wherever the executor put it. */
export interface TaskHost {
  readonly endpoint: TaskHostEndpoint;
  /** How to re-adopt it after a backend restart; absent when it cannot be. */
  readonly record?: TaskHostRecord;
  readonly workspace: WorkspaceIdentity;
  /** The agentctl process id when it runs on this machine, for diagnostics and tests. */
  readonly pid: number | undefined;
  /** Settles when the task host is gone, whoever ended it. */
  readonly exited: Promise<TaskHostExit>;
  /** Stops the task host and everything it owns; settles once it is reaped. Idempotent. */
  stop(): Promise<TaskHostExit>;
}

export type ExecutorErrorCode = 'unsupported' | 'not_implemented' | 'workspace_invalid' | 'start_failed' | 'unreachable';
export interface ExecutorError {
  code: ExecutorErrorCode;
  message: string;
}

export interface StartRequest {
  sessionId: string;
  task: Task;
}

export interface AdoptRequest extends StartRequest {
  record: TaskHostRecord;
}

export interface TaskHostExecutor {
  readonly kind: ExecutorKind;
  start(request: StartRequest): Promise<Result<TaskHost, ExecutorError>>;
  /**
   * Takes over a task host a previous backend started, after checking it is that very one (its
   * identity and token); an error when it is gone or someone else.
   */
  adopt?(request: AdoptRequest): Promise<Result<TaskHost, ExecutorError>>;
}
