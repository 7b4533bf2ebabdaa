import type { Session, Task, TaskPatch } from '@kandev/protocol';

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A task's workspace trust as the session view needs it (its own module, to stay self-contained). */
export interface WorkspaceTrust {
  taskId: string;
  trusted: boolean;
}

async function json<T>(fetchImpl: FetchLike, url: string, init?: RequestInit): Promise<T> {
  const res = await fetchImpl(url, { ...init, headers: { Accept: 'application/json', ...(init?.body ? { 'Content-Type': 'application/json' } : {}) } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** The trust switch of the task a session belongs to: read it, and change it (PATCH /api/tasks/:id). */
export function createWorkspaceTrustApi(fetchImpl: FetchLike = (input, init) => fetch(input, init)) {
  return {
    async load(sessionId: string): Promise<WorkspaceTrust> {
      const session = await json<Session>(fetchImpl, `/api/sessions/${encodeURIComponent(sessionId)}`);
      const task = await json<Task>(fetchImpl, `/api/tasks/${encodeURIComponent(session.taskId)}`);
      return { taskId: task.id, trusted: task.trustWorkspaceTools === true };
    },
    async set(taskId: string, trusted: boolean): Promise<WorkspaceTrust> {
      const patch: TaskPatch = { trustWorkspaceTools: trusted };
      const task = await json<Task>(fetchImpl, `/api/tasks/${encodeURIComponent(taskId)}`, { method: 'PATCH', body: JSON.stringify(patch) });
      return { taskId: task.id, trusted: task.trustWorkspaceTools === true };
    },
  };
}
