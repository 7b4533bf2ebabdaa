import type { WorkspaceIdentity } from '@kandev/protocol';

/**
 * Workspace identity per session, from the task-host ready handshake. Kept after the LSP
 * connection that brought it stops, so navigation keeps using the canonical workspace URI and
 * repository subpaths (S34).
 */
export class WorkspaceIdentityStore {
  private readonly identities = new Map<string, WorkspaceIdentity>();

  get(sessionId: string): WorkspaceIdentity | undefined {
    return this.identities.get(sessionId);
  }

  set(sessionId: string, identity: WorkspaceIdentity): void {
    this.identities.set(sessionId, { ...identity, repoSubpaths: [...identity.repoSubpaths] });
  }
}
