import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseNewTaskBody, refuseTaskBody, type TaskBodyError } from '@kandev/protocol';
import { localWorkspaceLayout } from '../executors/workspaceLayout.js';
import { ok, type Result } from '../base/result.js';
import type { NewTask } from '../store/taskRepository.js';

/** A refused task body: the API error plus which field and why, for the browser's copy. */
export type TaskInputError = TaskBodyError;

/** What is at a path: a folder, something else, or nothing reachable. */
function pathKind(path: string): 'directory' | 'other' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

/**
 * Validates `POST /api/tasks`: the shape by packages/protocol's schema (parseNewTaskBody), then what
 * needs this host. Repository paths must be absolute and distinct; Local PC ones must be folders
 * that exist now and form a workspace (see localWorkspaceLayout); other kinds keep their paths as
 * given, since they name places on another host.
 */
export function parseNewTask(body: unknown): Result<NewTask, TaskInputError> {
  const shape = parseNewTaskBody(body);
  if (!shape.ok) return shape;
  const { executor: kind, repositories } = shape.value;
  const paths: string[] = [];
  for (const [index, repository] of repositories.entries()) {
    if (!isAbsolute(repository.path))
      return refuseTaskBody(`repository path must be absolute: ${repository.path}`, { field: 'repositories', reason: 'path_not_absolute', index });
    const path = kind === 'local_pc' ? resolve(repository.path) : repository.path;
    if (paths.includes(path)) return refuseTaskBody(`repository listed twice: ${path}`, { field: 'repositories', reason: 'path_duplicate', index });
    paths.push(path);
  }
  if (kind === 'local_pc') {
    for (const [index, path] of paths.entries()) {
      const found = pathKind(path);
      if (found === 'missing') return refuseTaskBody(`repository folder does not exist: ${path}`, { field: 'repositories', reason: 'path_missing', index });
      if (found === 'other') return refuseTaskBody(`repository is not a folder: ${path}`, { field: 'repositories', reason: 'path_not_directory', index });
    }
    const layout = localWorkspaceLayout(paths.map((path) => ({ path })));
    if (!layout.ok) return refuseTaskBody(layout.error, { field: 'repositories', reason: 'paths_nested' });
  }
  return ok({ ...shape.value, repositories: paths.map((path) => ({ path })) });
}
