export interface Position {
  lineNumber: number;
  column: number;
}

/**
 * The one position waiting to be revealed in a session's editor (a search hit, a definition, a
 * deep link). `seq` grows with every request, so the mounted editor applies a reveal at once (S37).
 */
export class PendingReveal {
  private pending: { path: string; position: Position; taken?: boolean } | undefined;
  private requests = 0;

  get seq(): number {
    return this.requests;
  }

  request(path: string, position: Position): void {
    this.pending = { path, position };
    this.requests++;
  }

  /** A closed tab has nothing to reveal any more. */
  forget(path: string): void {
    if (this.pending?.path === path) this.pending = undefined;
  }

  /**
   * The reveal waiting for this path, if any. It is consumed when the current task's microtasks
   * run, not at once: React may mount an editor twice in one commit (StrictMode re-runs effects on
   * mount), and the editor that stays must apply the reveal too. A later mount finds nothing.
   */
  take(path: string): Position | undefined {
    const pending = this.pending;
    if (pending?.path !== path) return undefined;
    if (!pending.taken) {
      pending.taken = true;
      queueMicrotask(() => {
        if (this.pending === pending) this.pending = undefined;
      });
    }
    return pending.position;
  }
}
