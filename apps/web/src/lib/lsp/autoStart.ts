import type { LanguageId } from '@kandev/protocol';
import type { LspState } from './status.js';

export interface AutoStartInput {
  language: LanguageId;
  state: LspState;
  /** The person pressed Stop for this (session, language) in this window (S02). */
  stoppedByUser: boolean;
  /** From the user's settings (lsp_auto_start_languages). */
  autoStartLanguages: readonly LanguageId[];
  /** A lease hint is stored for this tab: a returning tab resumes its lease (C09). */
  hasLeaseHint: boolean;
  /** Phones never open an LSP connection (S58, C15). */
  phone: boolean;
}

/** Should a desktop editor that just showed a file of this language start (or resume) its server? */
export function shouldAutoStart(input: AutoStartInput): boolean {
  if (input.phone || input.stoppedByUser) return false;
  if (input.state === 'detached') return true; // a background session came back: reattach to its lease
  if (input.state !== 'off') return false;
  return input.hasLeaseHint || input.autoStartLanguages.includes(input.language);
}
