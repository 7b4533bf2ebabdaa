import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageId, Locale, ServerFeature } from '@kandev/protocol';
import { countText, formatElapsed } from '../../i18n/format.js';
import { isLocale, statusMessageText } from '../../i18n/i18n.js';
import { LspOfferedFeatures } from './LspOfferedFeatures.js';
import type { StatusView } from './statusView.js';

export interface LspActionHandlers {
  onStart(): void;
  onStop(): void;
  onRetry(): void;
}

interface LspStatusDetailsProps extends LspActionHandlers {
  language: LanguageId;
  view: StatusView;
  titleId?: string;
  /** What the attached server offers; listed while it runs (undefined: it has not answered initialize). */
  offered?: readonly ServerFeature[];
  /** More about the session around the server (the live workspace's watch mode). */
  children?: ReactNode;
}

/**
 * The content of the popover (fine pointers), the bottom drawer (coarse pointers) and the
 * status-bar popover: connection readiness, server-reported work, and the lifecycle action.
 * Long server text wraps anywhere (S49); nothing here estimates what remains.
 */
export function LspStatusDetails({ language, view, titleId, offered, onStart, onStop, onRetry, children }: LspStatusDetailsProps) {
  const { t, i18n } = useTranslation('lsp');
  const locale: Locale = isLocale(i18n.language) ? i18n.language : 'en';
  const elapsed = (ms: number) => formatElapsed(ms, t, locale);
  const text = (m: Parameters<typeof statusMessageText>[1]) => statusMessageText(t, m);
  const work = view.work;
  return (
    <div className="lsp-details" data-testid="lsp-status-details" data-state={view.state} data-language={language}>
      <h2 className="lsp-details-title" id={titleId}>
        {t('panel.title', { language: t(`languages.${language}`) })}
      </h2>
      <section className="lsp-details-section">
        <h3>{t('panel.connection')}</h3>
        <p className="lsp-readiness" data-testid="lsp-readiness">
          {text(view.readiness)}
        </p>
        {view.problem && (
          <p className="lsp-problem" data-testid="lsp-panel-message" role={view.state === 'error' ? 'alert' : undefined}>
            {text(view.problem)}
          </p>
        )}
        {view.guidance && (
          <p className="lsp-guidance" data-testid="lsp-panel-guidance">
            {text(view.guidance)}
            {view.guidance && 'key' in view.guidance && view.guidance.key === 'guidance.enableAutoInstall' && (
              <>
                {' '}
                <a href="#/settings" data-testid="lsp-open-settings">
                  {t('action.openSettings')}
                </a>
              </>
            )}
          </p>
        )}
        {view.installerDetail !== undefined && (
          <>
            <h3>{t('panel.installer')}</h3>
            <pre className="lsp-installer" data-testid="lsp-installer-detail">
              {view.installerDetail}
            </pre>
          </>
        )}
        {view.serverOutput !== undefined && (
          <>
            <h3>{t('faults:serverOutput')}</h3>
            <pre className="lsp-installer" data-testid="lsp-server-stderr">
              {view.serverOutput}
            </pre>
          </>
        )}
        {view.elapsedMs !== undefined && (
          <p className="lsp-elapsed" data-testid="lsp-elapsed" data-elapsed-ms={view.elapsedMs}>
            {t('panel.elapsed', { elapsed: elapsed(view.elapsedMs) })}
          </p>
        )}
        {view.network && (
          <p className="lsp-network" role="note" data-testid="lsp-network" data-network={view.network.network}>
            {t(view.network.key)}
          </p>
        )}
        {view.notice && (
          <p className="lsp-notice" role="note" data-testid="lsp-long-running">
            {'key' in view.notice ? t(view.notice.key, { language: t(`languages.${language}`), elapsed: elapsed(view.elapsedMs ?? 0) }) : view.notice.text}
          </p>
        )}
      </section>
      {work && (
        <section className="lsp-details-section" data-testid="lsp-progress" data-kind={work.kind}>
          <h3>{t('panel.work')}</h3>
          {work.kind === 'active' && (
            <div className="lsp-work" data-token={String(work.item.token)}>
              <p className="lsp-work-title" data-testid="lsp-progress-title">
                {work.item.title || t('progress.untitled')}
              </p>
              {work.item.message !== undefined && work.item.message !== '' && (
                <p className="lsp-work-message" data-testid="lsp-progress-message">
                  {work.item.message}
                </p>
              )}
              {work.item.percentage !== undefined ? (
                <p className="lsp-work-meter">
                  <progress max={100} value={work.item.percentage} aria-label={t('progress.working')} />
                  <span data-testid="lsp-progress-percentage">{t('progress.percentage', { percentage: work.item.percentage })}</span>
                </p>
              ) : (
                <p className="lsp-work-meter" data-testid="lsp-progress-indeterminate">
                  <span className="lsp-activity" aria-hidden="true" />
                  {t('progress.indeterminate')}
                </p>
              )}
              {view.workElapsedMs !== undefined && (
                <p className="lsp-work-elapsed" data-testid="lsp-progress-elapsed">
                  {t('progress.running', { elapsed: elapsed(view.workElapsedMs) })}
                </p>
              )}
              {work.others > 0 && (
                <p className="lsp-work-others" data-testid="lsp-progress-others" data-count={work.others}>
                  {countText(t, locale, 'progress.others', work.others)}
                </p>
              )}
            </div>
          )}
          {work.kind === 'finished' && (
            <p data-testid="lsp-progress-finished">{work.title ? t('progress.finished', { title: work.title }) : t('progress.finishedUntitled')}</p>
          )}
          {work.kind === 'none' && <p data-testid="lsp-progress-none">{t('progress.none')}</p>}
        </section>
      )}
      {(view.state === 'starting' || view.state === 'ready') && <LspOfferedFeatures features={offered} />}
      {children}
      <LspActionButtons view={view} onStart={onStart} onStop={onStop} onRetry={onRetry} />
    </div>
  );
}

/** Start when Off (Reattach when detached), Stop while running (kept during a long initialize, S41), Retry after a failure. */
export function LspActionButtons({ view, onStart, onStop, onRetry, className }: LspActionHandlers & { view: StatusView; className?: string }) {
  const { t } = useTranslation('lsp');
  const { actions } = view;
  if (!actions.start && !actions.stop && !actions.retry) return null;
  return (
    <div className={`lsp-actions${className ? ` ${className}` : ''}`}>
      {actions.start && (
        <button type="button" className="lsp-action" data-testid="lsp-start" onClick={onStart}>
          {t(view.state === 'detached' ? 'action.reattach' : 'action.start')}
        </button>
      )}
      {actions.stop && (
        <button type="button" className="lsp-action" data-testid="lsp-stop" onClick={onStop}>
          {t('action.stop')}
        </button>
      )}
      {actions.retry && (
        <button type="button" className="lsp-action" data-testid="lsp-retry" onClick={onRetry}>
          {t('action.retry')}
        </button>
      )}
    </div>
  );
}
