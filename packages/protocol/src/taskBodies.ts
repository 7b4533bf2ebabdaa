import { AGENTCTL_ENV_PREFIX } from './agentctlLaunch.js';
import { EXECUTOR_KINDS, type ApiError, type ExecutorKind, type TaskInvalid, type TaskPatch } from './api.js';
import { isRecord } from './records.js';

/**
 * The schema of the task bodies (`POST /api/tasks`, `PATCH /api/tasks/:id`): shapes, bounds and
 * names, checked without touching any file system, so the browser's forms and the backend share
 * them. What needs the host (absolute paths, folders that exist, a workspace layout) stays with
 * the backend, which runs it on what this accepts.
 */
export const MAX_TASK_TITLE_CHARS = 200;
export const MAX_TASK_REPOSITORIES = 32;
export const MAX_TASK_ENV_ENTRIES = 256;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A refused task body: the API error plus which field and why, for the browser's copy. */
export type TaskBodyError = ApiError & { invalid: TaskInvalid };
export type TaskBodyResult<T> = { ok: true; value: T } | { ok: false; error: TaskBodyError };

/** A `POST /api/tasks` body whose shape is right; repository paths are as sent (trimmed of nothing). */
export interface NewTaskBody {
  title: string;
  executor: ExecutorKind;
  repositories: { path: string }[];
  env: Record<string, string>;
}

export function refuseTaskBody(message: string, invalid: TaskInvalid): { ok: false; error: TaskBodyError } {
  return { ok: false, error: { code: 'bad_request', message, invalid } };
}

/** A title: a non-empty string of at most MAX_TASK_TITLE_CHARS, trimmed. */
export function parseTaskTitle(title: unknown): TaskBodyResult<string> {
  if (typeof title !== 'string' || title.trim() === '') return refuseTaskBody('title must be a non-empty string', { field: 'title', reason: 'title_empty' });
  if (title.length > MAX_TASK_TITLE_CHARS)
    return refuseTaskBody(`title must be at most ${MAX_TASK_TITLE_CHARS} characters`, { field: 'title', reason: 'title_too_long' });
  return { ok: true, value: title.trim() };
}

/** The shape of a new task; the first wrong field refuses the whole body. */
export function parseNewTaskBody(body: unknown): TaskBodyResult<NewTaskBody> {
  if (!isRecord(body)) return refuseTaskBody('the body must be a JSON object', { field: 'body', reason: 'body' });
  const { title, executor, repositories, env } = body;
  const parsedTitle = parseTaskTitle(title);
  if (!parsedTitle.ok) return parsedTitle;
  if (typeof executor !== 'string' || !(EXECUTOR_KINDS as readonly string[]).includes(executor)) {
    return refuseTaskBody(`executor must be one of ${EXECUTOR_KINDS.join(', ')}`, { field: 'executor', reason: 'executor_unknown' });
  }
  if (!Array.isArray(repositories) || repositories.length === 0 || repositories.length > MAX_TASK_REPOSITORIES) {
    return refuseTaskBody(`repositories must be a list of 1 to ${MAX_TASK_REPOSITORIES} {"path"} objects`, {
      field: 'repositories',
      reason: 'repositories_count',
    });
  }
  const paths: { path: string }[] = [];
  for (const [index, repository] of repositories.entries()) {
    if (!isRecord(repository) || typeof repository.path !== 'string' || repository.path.trim() === '') {
      return refuseTaskBody('each repository must be {"path": "..."}', { field: 'repositories', reason: 'path_empty', index });
    }
    paths.push({ path: repository.path });
  }
  const parsedEnv = parseTaskEnv(env);
  if (!parsedEnv.ok) return refuseTaskBody(parsedEnv.error, { field: 'env', reason: 'env_invalid' });
  return { ok: true, value: { title: parsedTitle.value, executor: executor as ExecutorKind, repositories: paths, env: parsedEnv.value } };
}

/** A task's environment: at most MAX_TASK_ENV_ENTRIES string values under shell-safe names. */
function parseTaskEnv(env: unknown): { ok: true; value: Record<string, string> } | { ok: false; error: string } {
  if (env === undefined || env === null) return { ok: true, value: {} };
  if (!isRecord(env)) return { ok: false, error: 'env must be an object of string values' };
  const entries = Object.entries(env);
  if (entries.length > MAX_TASK_ENV_ENTRIES) return { ok: false, error: `env may have at most ${MAX_TASK_ENV_ENTRIES} entries` };
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!ENV_NAME.test(name)) return { ok: false, error: `env name is not valid: ${name}` };
    // agentctl's own variables are set by the backend for each session, never by a task.
    if (name.startsWith(AGENTCTL_ENV_PREFIX)) return { ok: false, error: `env may not set ${name}` };
    if (typeof value !== 'string') return { ok: false, error: `env ${name} must be a string` };
    out[name] = value;
  }
  return { ok: true, value: out };
}

const PATCHABLE = new Set(['title', 'trustWorkspaceTools']);

/**
 * `PATCH /api/tasks/:id`: a new title and/or the workspace trust switch. Only the fields a person
 * may change after creation are accepted (the workspace is fixed once sessions exist); an unknown
 * field or a wrong type refuses the whole body, so nothing is half-applied.
 */
export function parseTaskPatchBody(body: unknown): TaskBodyResult<TaskPatch> {
  if (!isRecord(body)) return refuseTaskBody('the body must be a JSON object', { field: 'body', reason: 'body' });
  const unknown = Object.keys(body).filter((key) => !PATCHABLE.has(key));
  if (unknown.length > 0)
    return refuseTaskBody(`cannot change ${unknown.map((k) => JSON.stringify(k.slice(0, 64))).join(', ')}`, { field: 'body', reason: 'body' });
  const patch: TaskPatch = {};
  if ('title' in body) {
    const title = parseTaskTitle(body.title);
    if (!title.ok) return title;
    patch.title = title.value;
  }
  if ('trustWorkspaceTools' in body) {
    if (typeof body.trustWorkspaceTools !== 'boolean') {
      return refuseTaskBody('trustWorkspaceTools must be true or false', { field: 'trustWorkspaceTools', reason: 'trust_invalid' });
    }
    patch.trustWorkspaceTools = body.trustWorkspaceTools;
  }
  if (Object.keys(patch).length === 0) return refuseTaskBody('nothing to change', { field: 'body', reason: 'nothing_to_change' });
  return { ok: true, value: patch };
}
