import type { LanguageId, WorkspaceIdentity } from '@kandev/protocol';
import type { Db } from './database.js';

/**
 * A live lease's retained broker state, as a restarted backend rebuilds the lease from (with
 * agentctl's account of the stream): written when it changes (the `initialize` answer, a
 * registration, the settings told to the server), deleted when the lease ends. Document versions
 * are not here: they change on every keystroke, and agentctl, which sees every message, reports them.
 */
export interface PersistedLease {
  id: string;
  sessionId: string;
  language: LanguageId;
  userId: string;
  trustWorkspaceTools: boolean;
  /** agentctl's stream id: what the next backend resumes. */
  stream: number;
  workspace: WorkspaceIdentity;
  initializeParams?: unknown;
  initializeResult: unknown;
  registrations: unknown[];
  trustedTools?: unknown;
  configFingerprint?: string;
  createdAt: number;
}

interface LeaseRow {
  id: string;
  session_id: string;
  language: string;
  user_id: string;
  trust_workspace_tools: number;
  stream: number;
  workspace: string;
  initialize_params: string | null;
  initialize_result: string;
  registrations: string;
  trusted_tools: string | null;
  config_fingerprint: string | null;
  created_at: number;
}

function toLease(row: LeaseRow): PersistedLease | undefined {
  try {
    const lease: PersistedLease = {
      id: row.id,
      sessionId: row.session_id,
      language: row.language as LanguageId,
      userId: row.user_id,
      trustWorkspaceTools: row.trust_workspace_tools === 1,
      stream: row.stream,
      workspace: JSON.parse(row.workspace) as WorkspaceIdentity,
      initializeResult: JSON.parse(row.initialize_result) as unknown,
      registrations: JSON.parse(row.registrations) as unknown[],
      createdAt: row.created_at,
    };
    if (row.initialize_params !== null) lease.initializeParams = JSON.parse(row.initialize_params) as unknown;
    if (row.trusted_tools !== null) lease.trustedTools = JSON.parse(row.trusted_tools) as unknown;
    if (row.config_fingerprint !== null) lease.configFingerprint = row.config_fingerprint;
    return lease;
  } catch {
    return undefined; // a row that does not parse cannot be resumed: the lease starts cold
  }
}

export class LeaseRepository {
  constructor(private readonly db: Db) {}

  save(lease: PersistedLease): void {
    this.db
      .prepare(
        `INSERT INTO lsp_leases (id, session_id, language, user_id, trust_workspace_tools, stream, workspace, initialize_params,
           initialize_result, registrations, trusted_tools, config_fingerprint, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET stream = excluded.stream, workspace = excluded.workspace,
           initialize_params = excluded.initialize_params, initialize_result = excluded.initialize_result,
           registrations = excluded.registrations, trusted_tools = excluded.trusted_tools, config_fingerprint = excluded.config_fingerprint`,
      )
      .run(
        lease.id,
        lease.sessionId,
        lease.language,
        lease.userId,
        lease.trustWorkspaceTools ? 1 : 0,
        lease.stream,
        JSON.stringify(lease.workspace),
        lease.initializeParams === undefined ? null : JSON.stringify(lease.initializeParams),
        JSON.stringify(lease.initializeResult ?? null),
        JSON.stringify(lease.registrations),
        lease.trustedTools === undefined ? null : JSON.stringify(lease.trustedTools),
        lease.configFingerprint ?? null,
        lease.createdAt,
      );
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM lsp_leases WHERE id = ?').run(id);
  }

  forSession(sessionId: string): PersistedLease[] {
    const rows = this.db.prepare('SELECT * FROM lsp_leases WHERE session_id = ? ORDER BY created_at, rowid').all(sessionId) as LeaseRow[];
    return rows.flatMap((row) => {
      const lease = toLease(row);
      return lease ? [lease] : [];
    });
  }

  /** Leases of sessions that are not running any more are over: nothing can resume them. */
  deleteOfEndedSessions(): number {
    return this.db.prepare("DELETE FROM lsp_leases WHERE session_id NOT IN (SELECT id FROM sessions WHERE status IN ('starting', 'running'))").run().changes;
  }
}
