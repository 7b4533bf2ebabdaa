import { randomUUID } from 'node:crypto';
import type { Session, SessionStatus } from '@kandev/protocol';
import type { Db } from './database.js';

interface SessionRow {
  id: string;
  task_id: string;
  status: string;
  created_at: string;
  ended_at: string | null;
  workspace_path: string | null;
  error: string | null;
}

function toSession(row: SessionRow): Session {
  const session: Session = { id: row.id, taskId: row.task_id, status: row.status as SessionStatus, createdAt: row.created_at };
  if (row.workspace_path !== null && row.status === 'running') session.workspacePath = row.workspace_path;
  if (row.error !== null) session.error = row.error;
  return session;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  create(taskId: string): Session {
    const id = randomUUID();
    const createdAt = new Date().toISOString();
    this.db.prepare("INSERT INTO sessions (id, task_id, status, created_at) VALUES (?, ?, 'starting', ?)").run(id, taskId, createdAt);
    return { id, taskId, status: 'starting', createdAt };
  }

  get(id: string): Session | undefined {
    const row = this.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
    return row && toSession(row);
  }

  listForTask(taskId: string): Session[] {
    return (this.db.prepare('SELECT * FROM sessions WHERE task_id = ? ORDER BY created_at, rowid').all(taskId) as SessionRow[]).map(toSession);
  }

  markRunning(id: string, workspacePath: string): void {
    this.db.prepare("UPDATE sessions SET status = 'running', workspace_path = ?, error = NULL WHERE id = ?").run(workspacePath, id);
  }

  markStopped(id: string): void {
    this.db.prepare("UPDATE sessions SET status = 'stopped', ended_at = ? WHERE id = ?").run(new Date().toISOString(), id);
  }

  markFailed(id: string, error: string): void {
    this.db.prepare("UPDATE sessions SET status = 'failed', ended_at = ?, error = ? WHERE id = ?").run(new Date().toISOString(), error, id);
  }

  /**
   * Sessions a previous backend process left starting or running: their agentctl died with it (or
   * is unreachable without its token), so they are stopped, never shown as live.
   */
  stopLeftovers(): number {
    const result = this.db
      .prepare("UPDATE sessions SET status = 'stopped', ended_at = ?, error = 'backend restarted' WHERE status IN ('starting', 'running')")
      .run(new Date().toISOString());
    return result.changes;
  }
}
