/** What an install ends with; the stream maps each to frames and a close code (DESIGN section 3). */
export type InstallOutcome =
  | { ok: true; binaryPath: string }
  | { ok: false; code: 'no_installer'; guidance: string }
  | { ok: false; code: 'failed'; error: string }
  | { ok: false; code: 'cancelled' };

export const CANCELLED: InstallOutcome = Object.freeze({ ok: false, code: 'cancelled' } as const);
