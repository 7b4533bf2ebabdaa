import type { Router } from '../router.js';
import { errorOf, errorReply, readJsonBody } from '../http.js';
import type { ApiDeps } from './deps.js';
import { parseNewTask } from '../../tasks/taskValidation.js';
import { parseTaskPatch } from '../../tasks/taskPatch.js';

/** Tasks and their sessions (DESIGN section 9). */
export function addTaskRoutes(router: Router, deps: ApiDeps): void {
  router.get('/api/tasks', () => ({ status: 200, json: { tasks: deps.tasks.list() } }));

  router.post('/api/tasks', async ({ req }) => {
    const body = await readJsonBody(req);
    if (!body.ok) return errorReply(body.error);
    const parsed = parseNewTask(body.value.value);
    if (!parsed.ok) return errorReply(parsed.error);
    const task = deps.tasks.create(parsed.value);
    deps.log.info('task_created', { taskId: task.id, executor: task.executor, repositories: task.repositories.length });
    return { status: 201, json: task };
  });

  router.get('/api/tasks/:id', ({ params }) => {
    const task = deps.tasks.get(params.id as string);
    if (!task) return errorOf('not_found', 'no such task');
    return { status: 200, json: { ...task, sessions: deps.sessions.listForTask(task.id) } };
  });

  // Trust changes reach servers started after this (docs/workspace-trust.md): a lease keeps the
  // trust it was started with, and the next lease of the session gets the new one.
  router.patch('/api/tasks/:id', async ({ req, params }) => {
    const id = params.id as string;
    if (!deps.tasks.get(id)) return errorOf('not_found', 'no such task');
    const body = await readJsonBody(req);
    if (!body.ok) return errorReply(body.error);
    const patch = parseTaskPatch(body.value.value);
    if (!patch.ok) return errorReply(patch.error);
    if (patch.value.trustWorkspaceTools !== undefined) {
      deps.tasks.setTrustWorkspaceTools(id, patch.value.trustWorkspaceTools);
      deps.log.info('task_trust_changed', { taskId: id, trustWorkspaceTools: patch.value.trustWorkspaceTools });
    }
    return { status: 200, json: deps.tasks.get(id) };
  });

  router.get('/api/tasks/:id/sessions', ({ params }) => {
    const task = deps.tasks.get(params.id as string);
    if (!task) return errorOf('not_found', 'no such task');
    return { status: 200, json: { sessions: deps.sessions.listForTask(task.id) } };
  });

  router.post('/api/tasks/:id/sessions', async ({ params }) => {
    const started = await deps.sessions.start(params.id as string);
    if (!started.ok) return errorReply(started.error.error, started.error.session ? { session: started.error.session } : {});
    return { status: 201, json: started.value };
  });
}
