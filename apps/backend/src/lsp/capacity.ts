import { CloseCode } from '@kandev/protocol';
import type { LeaseRequest } from './relay.js';

export type AdmitResult = { ok: true; release(): void } | { ok: false; code: typeof CloseCode.CapacityReached };

/**
 * Admission under capacity, asked before anything starts. The lease broker fills this in later
 * (reattach costs no slot, evict the oldest detached lease); the gateway only asks and closes 4005.
 */
export interface CapacityHook {
  admit(request: LeaseRequest): AdmitResult;
}

/** Counts open pass-through connections; each slot is released exactly once, however it ends. */
export class ConnectionCapacity implements CapacityHook {
  private used = 0;

  constructor(private readonly max: number) {}

  get inUse(): number {
    return this.used;
  }

  admit(): AdmitResult {
    if (this.used >= this.max) return { ok: false, code: CloseCode.CapacityReached };
    this.used++;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.used--;
      },
    };
  }
}
