/**
 * What the idle reclaimer needs to know about live leases' pins (DESIGN section 5). Defined here, by
 * its consumer, so sessions/ never imports lsp/; lsp/taskHostPins.ts implements it.
 */
export type PinListener = (sessionId: string, pinned: boolean) => void;

export interface TaskHostPinView {
  isPinned(sessionId: string): boolean;
  /** Called when a session gains its first pin or loses its last one. Returns the unsubscribe. */
  onChange(listener: PinListener): () => void;
}
