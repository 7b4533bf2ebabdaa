/**
 * Numbered schema migrations. Append only: a released migration is never edited, a new number is
 * added instead, so every existing kandev.db reaches the same schema.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tasks_sessions_settings',
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        executor TEXT NOT NULL,
        repositories TEXT NOT NULL,
        env TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        task_id TEXT NOT NULL REFERENCES tasks(id),
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        ended_at TEXT,
        workspace_path TEXT,
        error TEXT
      );
      CREATE INDEX sessions_by_task ON sessions(task_id, created_at);
      CREATE INDEX sessions_by_status ON sessions(status);
      -- One row: Kandev file intelligence is single-user; the row id leaves room for more later.
      CREATE TABLE settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'session_host_process',
    // Which agentctl process a running session owns, so a backend that crashed can reap it on
    // its next start. The identity (boot id + kernel start time) guards against a reused pid.
    sql: `
      ALTER TABLE sessions ADD COLUMN host_pid INTEGER;
      ALTER TABLE sessions ADD COLUMN host_identity TEXT;
    `,
  },
  {
    version: 3,
    name: 'task_workspace_trust',
    // Whether a task's language servers may run code its workspace controls (docs/workspace-trust.md).
    // Off for every existing task: trust is something a person gives, never a default.
    sql: `
      ALTER TABLE tasks ADD COLUMN trust_workspace_tools INTEGER NOT NULL DEFAULT 0;
    `,
  },
];
