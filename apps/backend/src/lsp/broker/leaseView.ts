/** A read-only view of one lease, for the metrics endpoint's neighbours, debugging and tests. */
import { retainedBytes, type Lease, type LeasePhaseKind } from './lease.js';
import type { AttachmentId, EndReason, LeaseId, LeaseOwnerKind, SessionId, UserId } from './types.js';

export interface LeaseView {
  id: LeaseId;
  sessionId: SessionId;
  userId: UserId;
  ownerKind: LeaseOwnerKind;
  language: string;
  phase: LeasePhaseKind;
  attachmentId?: AttachmentId;
  generation: number;
  detachedAt?: number;
  endReason?: EndReason;
  initialize: 'none' | 'pending' | 'answered';
  pendingRequests: number;
  trackedRequestBytes: number;
  registrations: unknown[];
  retainedBytes: number;
}

export function viewOf(lease: Lease): LeaseView {
  const view: LeaseView = {
    id: lease.id,
    sessionId: lease.sessionId,
    userId: lease.userId,
    ownerKind: lease.ownerKind,
    language: lease.language,
    phase: lease.phase.kind,
    generation: lease.generation,
    initialize: lease.init.state.kind,
    pendingRequests: lease.requests.size,
    trackedRequestBytes: lease.requests.bytes,
    registrations: lease.registrations.list(),
    retainedBytes: retainedBytes(lease),
  };
  if (lease.attachment) view.attachmentId = lease.attachment.id;
  if (lease.detachedAt !== undefined) view.detachedAt = lease.detachedAt;
  if (lease.endReason !== undefined) view.endReason = lease.endReason;
  return view;
}
