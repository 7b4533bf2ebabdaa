import { useTranslation } from 'react-i18next';
import type { LanguageId } from '@kandev/protocol';
import type { StatusView } from './statusView.js';

/**
 * The one-line summary inside a trigger (toolbar control, status-bar item): language, state, and
 * the oldest work item's own percentage or an activity mark. Server text never goes here: it may be
 * arbitrarily long, and it is shown in full in the popover or drawer.
 */
export function LspSummary({ language, view }: { language: LanguageId; view: StatusView }) {
  const { t } = useTranslation('lsp');
  const work = view.work?.kind === 'active' ? view.work : undefined;
  return (
    <>
      <span className="lsp-summary-language">{t(`languages.${language}`)}</span>
      <span className={`lsp-dot lsp-dot-${view.state}`} aria-hidden="true" />
      <span className="lsp-summary-state" data-testid="lsp-summary-state">
        {t(`state.${view.state}`)}
      </span>
      {work &&
        (work.item.percentage !== undefined ? (
          <span className="lsp-summary-work" data-testid="lsp-summary-percentage">
            {t('progress.percentage', { percentage: work.item.percentage })}
          </span>
        ) : (
          <span className="lsp-summary-work lsp-activity" role="img" aria-label={t('progress.working')} data-testid="lsp-summary-activity" />
        ))}
    </>
  );
}
