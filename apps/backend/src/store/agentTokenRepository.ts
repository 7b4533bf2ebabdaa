import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './database.js';

/** The agent tokens of sessions (docs/agents.md): stored as SHA-256 hashes, never as themselves. */
export class AgentTokenRepository {
  constructor(private readonly db: Db) {}

  /**
   * A fresh token for the session: one for its task environment at start, one more for each
   * `npm run mcp -- config`. Every one of them ends with the session.
   */
  mint(sessionId: string, now = Date.now()): string {
    const token = `kmcp_${randomBytes(32).toString('base64url')}`;
    this.db.prepare('INSERT INTO agent_tokens (token_hash, session_id, created_at, revoked_at) VALUES (?, ?, ?, NULL)').run(hashOf(token), sessionId, now);
    return token;
  }

  /** The session a live token belongs to; undefined for an unknown or revoked one. */
  sessionOf(token: string): string | undefined {
    const hash = hashOf(token);
    const row = this.db.prepare('SELECT session_id, token_hash FROM agent_tokens WHERE token_hash = ? AND revoked_at IS NULL').get(hash) as
      { session_id: string; token_hash: string } | undefined;
    // The lookup is by hash already; the comparison keeps the check constant-time all the same.
    if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return undefined;
    return row.session_id;
  }

  revoke(sessionId: string, now = Date.now()): void {
    this.db.prepare('UPDATE agent_tokens SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL').run(now, sessionId);
  }
}

function hashOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
