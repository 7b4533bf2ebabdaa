import type { KandevApi } from './kandevApi.js';

/** A task's workspace trust as the session view needs it. */
export interface WorkspaceTrust {
  taskId: string;
  trusted: boolean;
}

/** The part of the window's API client the trust switch uses. */
export type WorkspaceTrustClient = Pick<KandevApi, 'getSession' | 'getTask' | 'setTaskTrust'>;

/** The trust switch of the task a session belongs to: read it, and change it (PATCH /api/tasks/:id). */
export function workspaceTrustApi(api: WorkspaceTrustClient) {
  return {
    async load(sessionId: string): Promise<WorkspaceTrust> {
      const session = await api.getSession(sessionId);
      const task = await api.getTask(session.taskId);
      return { taskId: task.id, trusted: task.trustWorkspaceTools === true };
    },
    async set(taskId: string, trusted: boolean): Promise<WorkspaceTrust> {
      const task = await api.setTaskTrust(taskId, trusted);
      return { taskId: task.id, trusted: task.trustWorkspaceTools === true };
    },
  };
}
