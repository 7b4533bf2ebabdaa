/**
 * Which task hosts live leases pin. A lease pins its session's task host from the moment it asks
 * for an upstream (`openUpstream`) until its slot is released (`releaseSlot`), so whatever
 * reclaims idle task hosts asks `isPinned(sessionId)` first and, when told a session became
 * unpinned, may reclaim it once its processes are gone (docs/architecture.md section 5). It lives in sessions/,
 * beside its consumer, and lsp/ (which pins) imports it: the dependency goes one way.
 */
import { Emitter, type Disposable } from '@kandev/kit';

/** A session gained its first pin (`pinned`) or lost its last one. */
export interface PinChange {
  sessionId: string;
  pinned: boolean;
}

/** What the idle reclaimer needs to know about live leases' pins; lsp/ owns the pinning. */
export interface TaskHostPinView {
  isPinned(sessionId: string): boolean;
  /** Called when a session gains its first pin or loses its last one. */
  onChange(listener: (change: PinChange) => void): Disposable;
}

export class TaskHostPins implements TaskHostPinView {
  private readonly sessionOf = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  // A listener's failure must not break lease accounting: it is isolated and ignored.
  private readonly changes = new Emitter<PinChange>(() => undefined);

  pin(leaseId: string, sessionId: string): void {
    if (this.sessionOf.has(leaseId)) return;
    this.sessionOf.set(leaseId, sessionId);
    const count = (this.counts.get(sessionId) ?? 0) + 1;
    this.counts.set(sessionId, count);
    if (count === 1) this.changes.fire({ sessionId, pinned: true });
  }

  /** Idempotent: a lease unpins once whatever path ends it. */
  unpin(leaseId: string): void {
    const sessionId = this.sessionOf.get(leaseId);
    if (sessionId === undefined) return;
    this.sessionOf.delete(leaseId);
    const count = (this.counts.get(sessionId) ?? 1) - 1;
    if (count > 0) {
      this.counts.set(sessionId, count);
      return;
    }
    this.counts.delete(sessionId);
    this.changes.fire({ sessionId, pinned: false });
  }

  isPinned(sessionId: string): boolean {
    return this.counts.has(sessionId);
  }

  /** Leases pinning a session's task host now. */
  pinCount(sessionId: string): number {
    return this.counts.get(sessionId) ?? 0;
  }

  onChange(listener: (change: PinChange) => void): Disposable {
    return this.changes.event(listener);
  }
}
