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
  {
    version: 4,
    name: 'restart_readoption',
    // What a restarted backend needs to re-adopt a running task host (docs/restarts.md): where it
    // listens, its per-instance token (this file is 0600, never argv), its process marker, the
    // container of a Local Docker host; and each live lease's retained broker state, keyed by the
    // stream id agentctl gave it.
    sql: `
      ALTER TABLE sessions ADD COLUMN host_kind TEXT;
      ALTER TABLE sessions ADD COLUMN host_port INTEGER;
      ALTER TABLE sessions ADD COLUMN host_token TEXT;
      ALTER TABLE sessions ADD COLUMN host_marker TEXT;
      ALTER TABLE sessions ADD COLUMN host_container TEXT;
      CREATE TABLE lsp_leases (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        language TEXT NOT NULL,
        user_id TEXT NOT NULL,
        trust_workspace_tools INTEGER NOT NULL,
        stream INTEGER NOT NULL,
        workspace TEXT NOT NULL,
        initialize_params TEXT,
        initialize_result TEXT NOT NULL,
        registrations TEXT NOT NULL,
        trusted_tools TEXT,
        config_fingerprint TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX lsp_leases_by_session ON lsp_leases(session_id);
    `,
  },
  {
    version: 5,
    name: 'agent_tokens',
    // The MCP endpoint's per-session agent tokens (docs/agents.md): only a SHA-256 of each is kept,
    // and every token of a session is revoked when it ends.
    sql: `
      CREATE TABLE agent_tokens (
        token_hash TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE INDEX agent_tokens_by_session ON agent_tokens(session_id);
    `,
  },
  {
    version: 6,
    name: 'trusted_tools_by_id',
    // A persisted lease's host-tool pins move from one member per tool (`tsserverPath`, `pythonPath`)
    // to `tools`, keyed by the tool id its language's rule names (docs/workspace-trust.md), so a
    // lease persisted before keeps its pins when a restarted backend adopts it.
    sql: `
      UPDATE lsp_leases
      SET trusted_tools = json_remove(
        json_set(trusted_tools, '$.tools', json_patch(
          CASE WHEN json_type(trusted_tools, '$.tsserverPath') = 'text'
            THEN json_object('tsserver', json_extract(trusted_tools, '$.tsserverPath')) ELSE '{}' END,
          CASE WHEN json_type(trusted_tools, '$.pythonPath') = 'text'
            THEN json_object('python', json_extract(trusted_tools, '$.pythonPath')) ELSE '{}' END)),
        '$.tsserverPath', '$.pythonPath')
      WHERE json_valid(trusted_tools)
        AND (json_type(trusted_tools, '$.tsserverPath') = 'text' OR json_type(trusted_tools, '$.pythonPath') = 'text');
    `,
  },
];
