import { randomUUID } from 'node:crypto';
import type { Session, SessionStatus } from '@kandev/protocol';
import type { Db } from './database.js';
import type { TaskHostRecord } from '../executors/executor.js';

interface SessionRow {
  id: string;
  task_id: string;
  status: string;
  created_at: string;
  ended_at: string | null;
  workspace_path: string | null;
  error: string | null;
  host_pid: number | null;
  host_identity: string | null;
  host_kind: string | null;
  host_port: number | null;
  host_token: string | null;
  host_marker: string | null;
  host_container: string | null;
}

/** A session a previous backend process left starting or running, and how to re-adopt its task host. */
export interface RecordedSession {
  sessionId: string;
  taskId: string;
  record?: TaskHostRecord;
}

const CLEAR_HOST = 'host_pid = NULL, host_identity = NULL, host_kind = NULL, host_port = NULL, host_token = NULL, host_marker = NULL, host_container = NULL';

function recordOf(row: SessionRow): TaskHostRecord | undefined {
  if ((row.host_kind !== 'local_pc' && row.host_kind !== 'local_docker') || row.host_port === null || row.host_token === null) return undefined;
  const record: TaskHostRecord = { kind: row.host_kind, port: row.host_port, token: row.host_token };
  if (row.host_pid !== null) record.pid = row.host_pid;
  if (row.host_identity !== null) record.identity = row.host_identity;
  if (row.host_marker !== null) record.marker = row.host_marker;
  if (row.host_container !== null) record.containerId = row.host_container;
  return record;
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

  markRunning(id: string, workspacePath: string, host?: Partial<TaskHostRecord> & { pid?: number; identity?: string }): void {
    this.db
      .prepare(
        `UPDATE sessions SET status = 'running', workspace_path = ?, error = NULL, host_pid = ?, host_identity = ?,
         host_kind = ?, host_port = ?, host_token = ?, host_marker = ?, host_container = ? WHERE id = ?`,
      )
      .run(
        workspacePath,
        host?.pid ?? null,
        host?.identity ?? null,
        host?.kind ?? null,
        host?.port ?? null,
        host?.token ?? null,
        host?.marker ?? null,
        host?.containerId ?? null,
        id,
      );
  }

  markStopped(id: string): void {
    this.db.prepare(`UPDATE sessions SET status = 'stopped', ended_at = ?, ${CLEAR_HOST} WHERE id = ?`).run(new Date().toISOString(), id);
  }

  markFailed(id: string, error: string): void {
    this.db.prepare(`UPDATE sessions SET status = 'failed', ended_at = ?, error = ?, ${CLEAR_HOST} WHERE id = ?`).run(new Date().toISOString(), error, id);
  }

  /** A session a previous backend process left running whose task host could not be re-adopted. */
  markLeftover(id: string): void {
    this.db
      .prepare(`UPDATE sessions SET status = 'stopped', ended_at = ?, error = 'backend restarted', ${CLEAR_HOST} WHERE id = ?`)
      .run(new Date().toISOString(), id);
  }

  /** Sessions a previous backend process left starting or running, with their re-adoption records. */
  recorded(): RecordedSession[] {
    const rows = this.db.prepare("SELECT * FROM sessions WHERE status IN ('starting', 'running') ORDER BY created_at, rowid").all() as SessionRow[];
    return rows.map((row) => {
      const record = recordOf(row);
      return { sessionId: row.id, taskId: row.task_id, ...(record ? { record } : {}) };
    });
  }
}
