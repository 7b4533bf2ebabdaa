import { SUPPORTED_EXECUTORS, type ExecutorKind, type Session } from '@kandev/protocol';
import { ApiRequestError, type TaskSummary } from '../../api/kandevApi.js';

/**
 * What the session view shows below its header:
 * - `unsupported`: the task's executor cannot run tasks or language servers (S26). Whatever the
 *   session's status, nothing is mounted that would list files or open an /lsp socket.
 * - `ended`: the session stopped or failed; a new session may help.
 * - `workbench`: the editor (desktop, tablet) or read-only viewer (phone).
 */
export type SessionBody = 'unsupported' | 'ended' | 'workbench';

export function isUnsupportedExecutor(executor: ExecutorKind): boolean {
  return !SUPPORTED_EXECUTORS.includes(executor);
}

export function sessionBody(session: Session, task: TaskSummary | undefined): SessionBody {
  if (task && isUnsupportedExecutor(task.executor)) return 'unsupported';
  return session.status === 'running' || session.status === 'starting' ? 'workbench' : 'ended';
}

/**
 * The failed session a refused start recorded, so the browser can open it and explain why instead
 * of a generic "start failed": only for `executor_unsupported`, the refusal no retry can fix.
 */
export function refusedSessionId(err: unknown): string | undefined {
  if (err instanceof ApiRequestError && err.code === 'executor_unsupported') return err.session?.id;
  return undefined;
}

/**
 * The session Open shows for a task whose executor is unsupported: its newest recorded session,
 * so that opening it again neither starts nor records another refused one.
 */
export function unsupportedOpenTarget(task: TaskSummary): string | undefined {
  if (!isUnsupportedExecutor(task.executor)) return undefined;
  const sessions = task.sessions ?? [];
  return sessions[sessions.length - 1]?.id;
}
