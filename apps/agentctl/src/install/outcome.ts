import type { InstallOutcome } from '../stream/installer.js';

/**
 * What an install ends with. The stream's installer seam (stream/installer.ts) defines the type; the
 * stream maps each outcome to frames and a close code (DESIGN section 3).
 */
export type { InstallOutcome };

export const CANCELLED: InstallOutcome = Object.freeze({ ok: false, code: 'cancelled' } as const);
