import { useTranslation } from 'react-i18next';
import { useLiveSnapshot, useSessionLive } from './useSessionLive.js';
import { WatchModeNotice } from './WatchModeNotice.js';

/** In the status details: how the session's workspace is watched, when it is polled instead (with the fix). */
export function SessionWatchDetails({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('live');
  const live = useLiveSnapshot(useSessionLive(sessionId));
  if (live.watch?.mode !== 'polling') return null;
  return (
    <section className="lsp-details-section" data-testid="lsp-watch-mode">
      <h3>{t('watch.section')}</h3>
      <WatchModeNotice watch={live.watch} />
    </section>
  );
}
