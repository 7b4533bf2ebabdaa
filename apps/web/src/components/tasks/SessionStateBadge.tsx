import type { SessionStatus } from '@kandev/protocol';
import { useTranslation } from 'react-i18next';

/** A session's status, or `unknown` when this page cannot learn it (signed out). */
export type ShownSessionStatus = SessionStatus | 'unknown';

const TONE: Record<ShownSessionStatus, string> = { starting: 'warning', running: 'success', stopped: 'neutral', failed: 'danger', unknown: 'neutral' };

/** A session's state as a dot and a word (the word carries it; the colour only hints). */
export function SessionStateBadge({ status, testId }: { status: ShownSessionStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`badge badge-${TONE[status]}`} data-testid={testId} data-state={status}>
      <span className="status-dot" aria-hidden="true" />
      {t(`tasks.sessionStatus.${status}`)}
    </span>
  );
}
