import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { basename, delimiter, join, resolve } from 'node:path';
import type { Task } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import { fail, messageOf, ok, type Result } from '../base/result.js';
import type { TaskRepository } from '../store/taskRepository.js';
import { isDirectory } from '../base/fsChecks.js';

export const DEMO_TASK_TITLE = 'Demo: TypeScript, Python and Go';

/**
 * The task environment of a folder opened from the command line: the repository's bundled
 * typescript-language-server and pyright-langserver come first on PATH, so the demo works with
 * nothing installed globally.
 */
export function bundledServersEnv(repoRoot: string, backendPath: string | undefined): Record<string, string> {
  const bin = join(repoRoot, 'node_modules', '.bin');
  return { PATH: backendPath ? `${bin}${delimiter}${backendPath}` : bin };
}

/**
 * The Local PC task for one folder, created once and reused on later starts. Its env is refreshed,
 * because it is derived from this backend's PATH, which may have changed since the last run.
 */
export function ensureFolderTask(
  tasks: TaskRepository,
  log: Logger,
  request: { folder: string; title?: string; env: Record<string, string> },
): Result<Task, string> {
  const folder = resolve(request.folder);
  if (!isDirectory(folder)) return fail(`not a folder: ${folder}`);
  const title = request.title ?? basename(folder);
  const existing = tasks.findLocalByFolder(title, folder);
  if (existing) {
    tasks.updateEnv(existing.id, { ...existing.env, ...request.env });
    log.info('task_ensured', { taskId: existing.id, created: false });
    return ok(tasks.get(existing.id) as Task);
  }
  const task = tasks.create({ title, executor: 'local_pc', repositories: [{ path: folder }], env: request.env });
  log.info('task_ensured', { taskId: task.id, created: true });
  return ok(task);
}

/**
 * Copies the demo workspace into Kandev's home the first time only: after that the copy belongs to
 * the user, and their edits survive every restart. The copy lands under a temporary name and is
 * renamed into place, so an interrupted first run never leaves a half-copied demo behind.
 */
export function seedDemoWorkspace(source: string, home: string, log: Logger): Result<string, string> {
  const target = join(home, 'demo-workspace');
  if (existsSync(target)) return ok(target);
  if (!isDirectory(source)) return fail(`the demo workspace is missing at ${source}`);
  const staging = `${target}.partial-${process.pid}`;
  try {
    rmSync(staging, { recursive: true, force: true });
    cpSync(source, staging, { recursive: true, errorOnExist: true, force: false });
    renameSync(staging, target);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    return fail(`cannot copy the demo workspace: ${messageOf(err)}`);
  }
  log.info('demo_workspace_seeded', { source, target });
  return ok(target);
}
