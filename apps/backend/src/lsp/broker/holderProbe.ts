/**
 * The holder probe that tells C05 from C10. A connection whose hint names a lease another socket
 * holds waits while that socket is asked whether it is still there: a tab whose network died leaves
 * a half-open socket behind (no close ever arrives), and its reconnect must resume its own lease
 * rather than be treated as a duplicated tab (C05). A live holder answers at once and keeps its
 * lease; the newcomer then gets one of its own or 4005 (C10).
 *
 *   browserConnected (hint names an attached lease) -> probeBrowser(holder) + probe deadline timer
 *   holderAnswered                                  -> the newcomer connects as usual (C10)
 *   holderSilent, or the deadline                   -> the holder is terminated and detached; the
 *                                                      newcomer connects and resumes the lease (C05)
 *   browserClosed of the newcomer meanwhile         -> forgotten
 */
import type { Lease } from './lease.js';
import type { AttachmentId, BrowserConnected } from './types.js';

/** How long the browser holding a hinted lease gets to answer a ping before it counts as gone. */
export const HOLDER_PROBE_MS = 3_000;

/** A connection waiting for the holder of the lease its hint names. */
export interface HeldConnection {
  connected: BrowserConnected;
  /** The attachment asked whether it is still there. */
  holder: AttachmentId;
}

/** Connections waiting on a holder probe, by the newcomer's attachment id. */
export class HolderProbes {
  private readonly waiting = new Map<AttachmentId, HeldConnection>();

  has(newcomer: AttachmentId): boolean {
    return this.waiting.has(newcomer);
  }

  hold(connection: HeldConnection): void {
    this.waiting.set(connection.connected.attachmentId, connection);
  }

  /** Removes and returns the waiting connection; undefined when it concluded already (stale). */
  take(newcomer: AttachmentId): HeldConnection | undefined {
    const held = this.waiting.get(newcomer);
    this.waiting.delete(newcomer);
    return held;
  }
}

/**
 * The attachment to ask before `connected` may be admitted: the one holding the lease its hint
 * names, when that lease is the same session's, language's and user's. The hint only routes.
 */
export function holderToProbe(connected: BrowserConnected, hinted: Lease | undefined): AttachmentId | undefined {
  if (!hinted?.attachment) return undefined;
  if (hinted.sessionId !== connected.sessionId || hinted.language !== connected.language || hinted.userId !== connected.userId) return undefined;
  return hinted.attachment.id;
}
