import { isAbsolute, resolve } from 'node:path';
import { AGENTCTL_ENV_PREFIX, EXECUTOR_KINDS, isRecord, type ExecutorKind } from '@kandev/protocol';
import { localWorkspaceLayout } from '../executors/workspaceLayout.js';
import { apiError, fail, ok, type Result } from '../result.js';
import type { NewTask } from '../store/taskRepository.js';
import { isDirectory } from '../fsChecks.js';

const MAX_TITLE = 200;
const MAX_REPOSITORIES = 32;
const MAX_ENV_ENTRIES = 256;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates `POST /api/tasks`. Local PC repositories must be absolute folders that exist now, and
 * must form a workspace (see localWorkspaceLayout); other kinds keep their paths as given, since
 * they name places on another host.
 */
export function parseNewTask(body: unknown): Result<NewTask> {
  if (!isRecord(body)) return fail(apiError('bad_request', 'the body must be a JSON object'));
  const { title, executor, repositories, env } = body;
  if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE) {
    return fail(apiError('bad_request', `title must be a non-empty string of at most ${MAX_TITLE} characters`));
  }
  if (typeof executor !== 'string' || !(EXECUTOR_KINDS as readonly string[]).includes(executor)) {
    return fail(apiError('bad_request', `executor must be one of ${EXECUTOR_KINDS.join(', ')}`));
  }
  const kind = executor as ExecutorKind;
  if (!Array.isArray(repositories) || repositories.length === 0 || repositories.length > MAX_REPOSITORIES) {
    return fail(apiError('bad_request', `repositories must be a list of 1 to ${MAX_REPOSITORIES} {"path"} objects`));
  }
  const paths: string[] = [];
  for (const repository of repositories) {
    if (!isRecord(repository) || typeof repository.path !== 'string' || repository.path === '') {
      return fail(apiError('bad_request', 'each repository must be {"path": "..."}'));
    }
    if (!isAbsolute(repository.path)) return fail(apiError('bad_request', `repository path must be absolute: ${repository.path}`));
    const path = kind === 'local_pc' ? resolve(repository.path) : repository.path;
    if (paths.includes(path)) return fail(apiError('bad_request', `repository listed twice: ${path}`));
    paths.push(path);
  }
  if (kind === 'local_pc') {
    for (const path of paths) {
      if (!isDirectory(path)) return fail(apiError('bad_request', `repository is not an existing folder: ${path}`));
    }
    const layout = localWorkspaceLayout(paths.map((path) => ({ path })));
    if (!layout.ok) return fail(apiError('bad_request', layout.error));
  }
  const parsedEnv = parseEnv(env);
  if (!parsedEnv.ok) return parsedEnv;
  return ok({ title: title.trim(), executor: kind, repositories: paths.map((path) => ({ path })), env: parsedEnv.value });
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
