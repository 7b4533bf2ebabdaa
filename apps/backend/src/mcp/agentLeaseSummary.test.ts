import { describe, expect, it } from 'vitest';
import type { LeaseView } from '../lsp/broker/index.js';
import { agentLeasesOf } from './agentLeaseSummary.js';

const lease = (over: Partial<LeaseView>): LeaseView =>
  ({ id: 'l', sessionId: 's1', userId: 'u', ownerKind: 'person', language: 'python', phase: 'running', generation: 1, ...over }) as LeaseView;

describe('agent leases in the status details', () => {
  it("lists only the session's agent leases, by language, with their state", () => {
    const summary = agentLeasesOf(
      [
        lease({ id: 'a', ownerKind: 'agent', language: 'typescript', phase: 'starting' }),
        lease({ id: 'b', ownerKind: 'person', language: 'python' }),
        lease({ id: 'c', ownerKind: 'agent', language: 'go', sessionId: 's2' }),
        lease({ id: 'd', ownerKind: 'agent', language: 'python', phase: 'running' }),
      ],
      's1',
      600_000,
    );
    expect(summary).toEqual({
      leases: [
        { language: 'python', state: 'running' },
        { language: 'typescript', state: 'starting' },
      ],
      idleReleaseMs: 600_000,
    });
  });
});
