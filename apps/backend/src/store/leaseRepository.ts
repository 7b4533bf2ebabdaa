import { parsePersistedLease, type PersistedLease, type WireShapeError } from '@kandev/protocol';
import type { Db } from './database.js';

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

/** A stored row as the persisted lease's schema reads it (its JSON columns parsed first). */
function toLease(row: LeaseRow): { ok: true; value: PersistedLease } | { ok: false; error: WireShapeError } {
  const json = (text: string | null, column: string): unknown => {
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return { unreadable: column };
    }
  };
  return parsePersistedLease({
    id: row.id,
    sessionId: row.session_id,
    language: row.language,
    userId: row.user_id,
    trustWorkspaceTools: row.trust_workspace_tools === 1,
    stream: row.stream,
    workspace: json(row.workspace, 'workspace'),
    initializeParams: json(row.initialize_params, 'initialize_params'),
    initializeResult: json(row.initialize_result, 'initialize_result'),
    registrations: json(row.registrations, 'registrations'),
    trustedTools: json(row.trusted_tools, 'trusted_tools'),
    configFingerprint: row.config_fingerprint ?? undefined,
    createdAt: row.created_at,
  });
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

  /**
   * The session's stored leases. A row the schema refuses cannot be resumed: it is left out (its
   * lease starts cold, as one that was never persisted) and `onRefused` is told which and why.
   */
  forSession(sessionId: string, onRefused: (id: string, error: WireShapeError) => void = () => undefined): PersistedLease[] {
    const rows = this.db.prepare('SELECT * FROM lsp_leases WHERE session_id = ? ORDER BY created_at, rowid').all(sessionId) as LeaseRow[];
    return rows.flatMap((row) => {
      const lease = toLease(row);
      if (lease.ok) return [lease.value];
      onRefused(row.id, lease.error);
      return [];
    });
  }

  /** Leases of sessions that are not running any more are over: nothing can resume them. */
  deleteOfEndedSessions(): number {
    return this.db.prepare("DELETE FROM lsp_leases WHERE session_id NOT IN (SELECT id FROM sessions WHERE status IN ('starting', 'running'))").run().changes;
  }
}
