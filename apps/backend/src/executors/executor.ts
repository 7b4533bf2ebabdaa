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

/** One running task host: the agentctl of one session, wherever the executor put it. */
export interface TaskHost {
  readonly endpoint: TaskHostEndpoint;
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

export interface TaskHostExecutor {
  readonly kind: ExecutorKind;
  start(request: StartRequest): Promise<Result<TaskHost, ExecutorError>>;
}
