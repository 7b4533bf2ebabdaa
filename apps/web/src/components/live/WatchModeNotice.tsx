import type { WatchDegradedReason, WatchMode } from '@kandev/protocol';
import { useTranslation } from 'react-i18next';
import './live.css';

/** The Linux setting that bounds inotify watches, and a command that raises it: never translated. */
const WATCH_SETTING = 'fs.inotify.max_user_watches';
const WATCH_COMMAND = `sudo sysctl ${WATCH_SETTING}=524288`;

/** Shown while the task host polls instead of watching (the OS watch limit, a failed watcher): why, and the fix. */
export function WatchModeNotice({ watch }: { watch: { mode: WatchMode; reason?: WatchDegradedReason } | undefined }) {
  const { t } = useTranslation('live');
  if (watch?.mode !== 'polling') return null;
  const reason = watch.reason ?? 'watcher_failed';
  return (
    <div className="watch-notice" role="note" data-testid="watch-polling" data-reason={reason}>
      <p className="watch-notice-title">{t('watch.pollingTitle')}</p>
      <p>{t(`watch.${reason}`)}</p>
      <p className="watch-notice-fix">{t(`watch.${reason}Fix`, { setting: WATCH_SETTING, command: WATCH_COMMAND })}</p>
    </div>
  );
}
