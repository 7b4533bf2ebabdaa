import type { InstallOutcome } from './seam.js';

/**
 * What an install ends with. The installer seam (seam.ts) defines the type; the
 * stream maps each outcome to frames and a close code (docs/architecture.md section 3).
 */
export type { InstallOutcome };

export const CANCELLED: InstallOutcome = Object.freeze({ ok: false, error: { code: 'cancelled' } } as const);
