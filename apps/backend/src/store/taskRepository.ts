import { randomUUID } from 'node:crypto';
import type { ExecutorKind, Repository, Task } from '@kandev/protocol';
import type { Db } from './database.js';

interface TaskRow {
  id: string;
  title: string;
  executor: string;
  repositories: string;
  env: string;
  created_at: string;
  trust_workspace_tools: number;
}

export interface NewTask {
  title: string;
  executor: ExecutorKind;
  repositories: Repository[];
  env: Record<string, string>;
}

function toTask(row: TaskRow): Task {
  return {
    id: row.id,
    title: row.title,
    executor: row.executor as ExecutorKind,
    repositories: JSON.parse(row.repositories) as Repository[],
    env: JSON.parse(row.env) as Record<string, string>,
    createdAt: row.created_at,
    trustWorkspaceTools: row.trust_workspace_tools === 1,
  };
}

export class TaskRepository {
  constructor(private readonly db: Db) {}

  create(task: NewTask): Task {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    this.db
      .prepare('INSERT INTO tasks (id, title, executor, repositories, env, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, task.title, task.executor, JSON.stringify(task.repositories), JSON.stringify(task.env), createdAt);
    return { id, ...task, createdAt, trustWorkspaceTools: false };
  }

  get(id: string): Task | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
    return row && toTask(row);
  }

  list(): Task[] {
    return (this.db.prepare('SELECT * FROM tasks ORDER BY created_at, rowid').all() as TaskRow[]).map(toTask);
  }

  /** The Local PC task with exactly this one repository and title, for idempotent seeding. */
  findLocalByFolder(title: string, folder: string): Task | undefined {
    return this.list().find((t) => t.executor === 'local_pc' && t.title === title && t.repositories.length === 1 && t.repositories[0]?.path === folder);
  }

  /** Records whether the task trusts its workspace's tools; false when there is no such task. */
  setTrustWorkspaceTools(id: string, trusted: boolean): boolean {
    return this.db.prepare('UPDATE tasks SET trust_workspace_tools = ? WHERE id = ?').run(trusted ? 1 : 0, id).changes === 1;
  }

  /** Renames a task; false when no such task exists. */
  rename(id: string, title: string): boolean {
    return this.db.prepare('UPDATE tasks SET title = ? WHERE id = ?').run(title, id).changes > 0;
  }

  /** Deletes a task and its session history; the caller stopped its live sessions first. */
  delete(id: string): boolean {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM lsp_leases WHERE session_id IN (SELECT id FROM sessions WHERE task_id = ?)').run(id);
      // A deleted session's agent tokens go with it (already revoked when it stopped): nothing may point at it.
      this.db.prepare('DELETE FROM agent_tokens WHERE session_id IN (SELECT id FROM sessions WHERE task_id = ?)').run(id);
      this.db.prepare('DELETE FROM sessions WHERE task_id = ?').run(id);
      return this.db.prepare('DELETE FROM tasks WHERE id = ?').run(id).changes > 0;
    })();
  }

  updateEnv(id: string, env: Record<string, string>): void {
    this.db.prepare('UPDATE tasks SET env = ? WHERE id = ?').run(JSON.stringify(env), id);
  }
}
