import type { LanguageId } from '@kandev/protocol';
import { useNow } from '../../app/clock.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { statusView, type StatusView } from './statusView.js';
import { useSnapshot } from '../../app/useSnapshot.js';

/** The live view of one connection: re-renders on status or progress, and every second while time is shown. */
export function useLspView(connection: LspConnection, language: LanguageId): StatusView {
  const status = useSnapshot(connection.onDidChangeStatus, () => connection.getStatus());
  const progress = useSnapshot(connection.onDidChangeProgress, connection.getProgress);
  // First pass without ticking decides whether anything on screen depends on the clock.
  const ticking = statusView(status, progress, language, 0).ticking;
  const now = useNow(ticking);
  return statusView(status, progress, language, now);
}
