import { useSyncExternalStore } from 'react';
import type { LanguageId } from '@kandev/protocol';
import { useNow } from '../../app/clock.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { statusView, type StatusView } from './statusView.js';

/** The live view of one connection: re-renders on status or progress, and every second while time is shown. */
export function useLspView(connection: LspConnection, language: LanguageId): StatusView {
  const status = useSyncExternalStore(connection.subscribe, () => connection.getStatus());
  const progress = useSyncExternalStore(connection.subscribeProgress, connection.getProgress);
  // First pass without ticking decides whether anything on screen depends on the clock.
  const ticking = statusView(status, progress, language, 0).ticking;
  const now = useNow(ticking);
  return statusView(status, progress, language, now);
}
