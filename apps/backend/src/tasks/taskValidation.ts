import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { AGENTCTL_ENV_PREFIX, EXECUTOR_KINDS, isRecord, type ApiError, type ExecutorKind, type TaskInvalid } from '@kandev/protocol';
import { localWorkspaceLayout } from '../executors/workspaceLayout.js';
import { apiError, fail, ok, type Result } from '../base/result.js';
import type { NewTask } from '../store/taskRepository.js';

/** A refused task body: the API error plus which field and why, for the browser's copy. */
export type TaskInputError = ApiError & { invalid: TaskInvalid };

export function refuse(message: string, invalid: TaskInvalid): { ok: false; error: TaskInputError } {
  return fail({ ...apiError('bad_request', message), invalid });
}

/** What is at a path: a folder, something else, or nothing reachable. */
function pathKind(path: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

const MAX_TITLE = 200;
const MAX_REPOSITORIES = 32;
const MAX_ENV_ENTRIES = 256;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates `POST /api/tasks`. Local PC repositories must be absolute folders that exist now, and
 * must form a workspace (see localWorkspaceLayout); other kinds keep their paths as given, since
 * they name places on another host.
 */
export function parseNewTask(body: unknown): Result<NewTask, TaskInputError> {
  if (!isRecord(body)) return refuse('the body must be a JSON object', { field: 'body', reason: 'body' });
  const { title, executor, repositories, env } = body;
  const parsedTitle = parseTitle(title);
  if (!parsedTitle.ok) return parsedTitle;
  if (typeof executor !== 'string' || !(EXECUTOR_KINDS as readonly string[]).includes(executor)) {
    return refuse(`executor must be one of ${EXECUTOR_KINDS.join(', ')}`, { field: 'executor', reason: 'executor_unknown' });
  }
  const kind = executor as ExecutorKind;
  if (!Array.isArray(repositories) || repositories.length === 0 || repositories.length > MAX_REPOSITORIES) {
    return refuse(`repositories must be a list of 1 to ${MAX_REPOSITORIES} {"path"} objects`, { field: 'repositories', reason: 'repositories_count' });
  }
  const paths: string[] = [];
  for (const [index, repository] of repositories.entries()) {
    if (!isRecord(repository) || typeof repository.path !== 'string' || repository.path.trim() === '') {
      return refuse('each repository must be {"path": "..."}', { field: 'repositories', reason: 'path_empty', index });
    }
    if (!isAbsolute(repository.path)) return refuse(`repository path must be absolute: ${repository.path}`, { field: 'repositories', reason: 'path_not_absolute', index });
    const path = kind === 'local_pc' ? resolve(repository.path) : repository.path;
    if (paths.includes(path)) return refuse(`repository listed twice: ${path}`, { field: 'repositories', reason: 'path_duplicate', index });
    paths.push(path);
  }
  if (kind === 'local_pc') {
    for (const [index, path] of paths.entries()) {
      const found = pathKind(path);
      if (found === 'missing') return refuse(`repository folder does not exist: ${path}`, { field: 'repositories', reason: 'path_missing', index });
      if (found === 'other') return refuse(`repository is not a folder: ${path}`, { field: 'repositories', reason: 'path_not_directory', index });
    }
    const layout = localWorkspaceLayout(paths.map((path) => ({ path })));
    if (!layout.ok) return refuse(layout.error, { field: 'repositories', reason: 'paths_nested' });
  }
  const parsedEnv = parseEnv(env);
  if (!parsedEnv.ok) return refuse(parsedEnv.error.message, { field: 'env', reason: 'env_invalid' });
  return ok({ title: parsedTitle.value, executor: kind, repositories: paths.map((path) => ({ path })), env: parsedEnv.value });
}

export function parseTitle(title: unknown): Result<string, TaskInputError> {
  if (typeof title !== 'string' || title.trim() === '') return refuse('title must be a non-empty string', { field: 'title', reason: 'title_empty' });
  if (title.length > MAX_TITLE) return refuse(`title must be at most ${MAX_TITLE} characters`, { field: 'title', reason: 'title_too_long' });
  return ok(title.trim());
}

function parseEnv(env: unknown): Result<Record<string, string>> {
  if (env === undefined || env === null) return ok({});
  if (!isRecord(env)) return fail(apiError('bad_request', 'env must be an object of string values'));
  const entries = Object.entries(env);
  if (entries.length > MAX_ENV_ENTRIES) return fail(apiError('bad_request', `env may have at most ${MAX_ENV_ENTRIES} entries`));
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!ENV_NAME.test(name)) return fail(apiError('bad_request', `env name is not valid: ${name}`));
    // agentctl's own variables are set by the backend for each session, never by a task.
    if (name.startsWith(AGENTCTL_ENV_PREFIX)) return fail(apiError('bad_request', `env may not set ${name}`));
    if (typeof value !== 'string') return fail(apiError('bad_request', `env ${name} must be a string`));
    out[name] = value;
  }
  return ok(out);
}
