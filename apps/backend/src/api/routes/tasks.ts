import { API_ROUTES } from '@kandev/protocol';
import type { Router } from '../router.js';
import { errorOf, errorReply, readJsonBody } from '../http.js';
import type { ApiDeps } from './deps.js';
import { parseNewTask, type TaskInputError } from '../../tasks/taskValidation.js';
import { parseTaskPatch } from '../../tasks/taskPatch.js';

function refusal(error: TaskInputError) {
  const { invalid, ...apiError } = error;
  return errorReply(apiError, { invalid });
}

/** Tasks and their sessions (docs/architecture.md section 9). */
export function addTaskRoutes(router: Router, deps: ApiDeps): void {
  // Each task with its sessions, so the list shows what runs without a request per task.
  router.get(API_ROUTES.tasks, () => ({
    status: 200,
    json: { tasks: deps.tasks.list().map((task) => ({ ...task, sessions: deps.sessions.listForTask(task.id) })) },
  }));

  router.post(API_ROUTES.tasks, async ({ req }) => {
    const body = await readJsonBody(req);
    if (!body.ok) return errorReply(body.error);
    const parsed = parseNewTask(body.value.value);
    if (!parsed.ok) return refusal(parsed.error);
    const task = deps.tasks.create(parsed.value);
    deps.log.info('task_created', { taskId: task.id, executor: task.executor, repositories: task.repositories.length });
    return { status: 201, json: task };
  });

  router.get(API_ROUTES.task, ({ params }) => {
    const task = deps.tasks.get(params.id as string);
    if (!task) return errorOf('not_found', 'no such task');
    return { status: 200, json: { ...task, sessions: deps.sessions.listForTask(task.id) } };
  });

  // A title is renamed at once. Trust changes reach servers started after this
  // (docs/workspace-trust.md): a lease keeps the trust it was started with, and the next lease of
  // the session gets the new one.
  router.patch(API_ROUTES.task, async ({ req, params }) => {
    const id = params.id as string;
    if (!deps.tasks.get(id)) return errorOf('not_found', 'no such task');
    const body = await readJsonBody(req);
    if (!body.ok) return errorReply(body.error);
    const parsed = parseTaskPatch(body.value.value);
    if (!parsed.ok) return refusal(parsed.error);
    const { title, trustWorkspaceTools } = parsed.value;
    if (title !== undefined) {
      deps.tasks.rename(id, title);
      deps.log.info('task_renamed', { taskId: id });
    }
    if (trustWorkspaceTools !== undefined) {
      deps.tasks.setTrustWorkspaceTools(id, trustWorkspaceTools);
      deps.log.info('task_trust_changed', { taskId: id, trustWorkspaceTools });
    }
    return { status: 200, json: { ...deps.tasks.get(id), sessions: deps.sessions.listForTask(id) } };
  });

  // Deleting a task stops its live sessions first (their task hosts and leases go with them).
  router.delete(API_ROUTES.task, async ({ params }) => {
    const id = params.id as string;
    if (!deps.tasks.get(id)) return errorOf('not_found', 'no such task');
    const stopped = await deps.sessions.stopAllOfTask(id);
    deps.tasks.delete(id);
    deps.log.info('task_deleted', { taskId: id, sessionsStopped: stopped.length });
    return { status: 200, json: { id, sessionsStopped: stopped.map((s) => s.id) } };
  });

  router.get(API_ROUTES.taskSessions, ({ params }) => {
    const task = deps.tasks.get(params.id as string);
    if (!task) return errorOf('not_found', 'no such task');
    return { status: 200, json: { sessions: deps.sessions.listForTask(task.id) } };
  });

  router.post(API_ROUTES.taskSessions, async ({ params }) => {
    const started = await deps.sessions.start(params.id as string);
    if (!started.ok) return errorReply(started.error.error, started.error.session ? { session: started.error.session } : {});
    return { status: 201, json: started.value };
  });
}
