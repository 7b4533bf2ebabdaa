import type { AgentLeasesResponse } from '@kandev/protocol';
import type { LeaseView } from '../lsp/broker/index.js';

/** The leases one session's agents hold, as the person's status details list them. */
export function agentLeasesOf(leases: readonly LeaseView[], sessionId: string, idleReleaseMs: number): AgentLeasesResponse {
  return {
    leases: leases
      .filter((lease) => lease.ownerKind === 'agent' && lease.sessionId === sessionId)
      .map((lease) => ({ language: lease.language, state: lease.phase }))
      .sort((a, b) => a.language.localeCompare(b.language)),
    idleReleaseMs,
  };
}
