/**
 * Leases across a backend restart (docs/restarts.md). Going out: what of a lease is worth
 * persisting, and a cheap signature that moves whenever that changes. Coming back: a lease rebuilt
 * detached, on the very server process, from the persisted state and agentctl's account.
 */
import type { PersistedLease } from '@kandev/protocol';
import { uriKey } from './documents.js';
import { InitializeExchange } from './initialize.js';
import { createLease, hostOf, type Lease } from './lease.js';
import type { AdoptedLeaseState } from './types.js';

/** A running lease's state as the journal stores it (the protocol's one persisted-lease shape), with its signature. */
export type PersistableLease = PersistedLease & {
  /** Moves whenever any of the above does (compared, never stored). */
  signature: string;
};

/**
 * Only a lease whose server is initialized (the browser's or the broker's `initialized` sent) on a
 * known stream can be resumed by another backend; any other is not persisted and starts cold. An
 * agent's lease never is: its holder (the MCP client inside the backend) dies with the backend, no
 * hint will ever ask for it again, and adopted it would come back as a person's lease holding a slot.
 * Its stream, claimed by no persisted lease, is released on re-adoption. The signature is cheap (no
 * copy of any state): it is asked after every event.
 */
export function persistSignature(lease: Lease): string | undefined {
  if (lease.ownerKind === 'agent') return undefined;
  if (lease.endReason !== undefined || lease.phase.kind !== 'running' || lease.stream === undefined || !lease.init.initializedSent) return undefined;
  return `${lease.stream}|${lease.registrations.revision}|${lease.configFingerprint ?? ''}|${lease.trustedTools ? 1 : 0}`;
}

export function persistableOf(lease: Lease, signature: string): PersistableLease | undefined {
  const host = hostOf(lease);
  if (!host || lease.stream === undefined) return undefined;
  const persisted: PersistableLease = {
    id: lease.id,
    sessionId: lease.sessionId,
    language: lease.language,
    userId: lease.userId,
    trustWorkspaceTools: lease.trustWorkspaceTools,
    stream: lease.stream,
    workspace: host,
    initializeResult: lease.init.result,
    registrations: lease.registrations.list(),
    createdAt: lease.createdAt,
    signature,
  };
  if (lease.init.params !== undefined) persisted.initializeParams = lease.init.params;
  if (lease.trustedTools) persisted.trustedTools = lease.trustedTools;
  if (lease.configFingerprint !== undefined) persisted.configFingerprint = lease.configFingerprint;
  return persisted;
}

/** The lease rebuilt: running on its host, initialized, registrations and versions as the server knows them. */
export function adoptedLease(state: AdoptedLeaseState, seq: number): Lease {
  const lease = createLease({
    id: state.id,
    sessionId: state.sessionId,
    language: state.language,
    userId: state.userId,
    createdAt: state.createdAt,
    seq,
    trustWorkspaceTools: state.trustWorkspaceTools,
  });
  lease.phase = { kind: 'running', host: state.workspace };
  lease.stream = state.stream;
  lease.init = InitializeExchange.completed(state.initializeParams, state.initializeResult);
  lease.registrations.register({ registrations: state.registrations });
  for (const doc of state.openDocuments) lease.versions.restore(uriKey(doc.uri), doc.version);
  // Answers to the old backend's requests may still arrive: this broker's ids never meet them.
  lease.nextServerId = Math.max(1, Math.floor(state.maxRequestId) + 1);
  if (state.configFingerprint !== undefined) lease.configFingerprint = state.configFingerprint;
  if (state.trustedTools) lease.trustedTools = state.trustedTools;
  return lease;
}
