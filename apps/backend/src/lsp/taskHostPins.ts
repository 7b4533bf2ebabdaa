/**
 * Which task hosts live leases pin. A lease pins its session's task host from the moment it asks
 * for an upstream (`openUpstream`) until its slot is released (`releaseSlot`), so whatever
 * reclaims idle task hosts asks `isPinned(sessionId)` first and, when told a session became
 * unpinned, may reclaim it once its processes are gone (DESIGN section 5).
 */
import type { PinListener, TaskHostPinView } from '../sessions/taskHostPinView.js';

export type { PinListener, TaskHostPinView };

export class TaskHostPins implements TaskHostPinView {
  private readonly sessionOf = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly listeners = new Set<PinListener>();

  pin(leaseId: string, sessionId: string): void {
    if (this.sessionOf.has(leaseId)) return;
    this.sessionOf.set(leaseId, sessionId);
    const count = (this.counts.get(sessionId) ?? 0) + 1;
    this.counts.set(sessionId, count);
    if (count === 1) this.notify(sessionId, true);
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
    this.notify(sessionId, false);
  }

  isPinned(sessionId: string): boolean {
    return this.counts.has(sessionId);
  }

  /** Leases pinning a session's task host now. */
  pinCount(sessionId: string): number {
    return this.counts.get(sessionId) ?? 0;
  }

  onChange(listener: PinListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(sessionId: string, pinned: boolean): void {
    for (const listener of this.listeners) {
      try {
        listener(sessionId, pinned);
      } catch {
        // a listener's failure must not break lease accounting
      }
    }
  }
}
