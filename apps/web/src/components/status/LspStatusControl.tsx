import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageId } from '@kandev/protocol';
import { statusMessageText } from '../../i18n/i18n.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { LspActionButtons, LspStatusDetails } from './LspStatusDetails.js';
import { useOfferedFeatures } from './LspOfferedFeatures.js';
import { SessionWatchDetails } from '../live/SessionWatchDetails.js';
import { AgentLeasesDetails } from './AgentLeasesDetails.js';
import { LspSummary } from './LspSummary.js';
import { StatusSurface, type SurfaceKind } from './StatusSurface.js';
import { useLspView } from './useLspView.js';
import { useSnapshot } from '../../app/useSnapshot.js';

interface LspStatusControlProps {
  connection: LspConnection;
  language: LanguageId;
  /** Popover on fine pointers, bottom drawer on coarse ones. */
  surface: SurfaceKind;
}

/**
 * The editor-toolbar status of one (session, language): a trigger with the live summary, the
 * current message and the lifecycle action inline, and the full details in a popover or drawer.
 * Test hooks: `lsp-status` (data-state, data-language) wraps the inline part.
 */
export function LspStatusControl({ connection, language, surface }: LspStatusControlProps) {
  const { t } = useTranslation('lsp');
  const status = useSnapshot(connection.onDidChangeStatus, () => connection.getStatus());
  const view = useLspView(connection, language);
  const offered = useOfferedFeatures(connection);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const detailsId = useId();
  const handlers = { onStart: () => connection.start(), onStop: () => connection.stop(), onRetry: () => connection.retry() };
  return (
    <div
      className="lsp-status"
      data-testid="lsp-status"
      data-state={status.state}
      data-language={language}
      data-surface={surface}
      role="status"
      aria-live="polite"
    >
      <button
        ref={trigger}
        type="button"
        className="lsp-trigger"
        data-testid="lsp-status-trigger"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-describedby={detailsId}
        onClick={() => setOpen((o) => !o)}
      >
        <LspSummary language={language} view={view} />
      </button>
      {/* The visible summary names the button (WCAG 2.5.3); what it does is its description. */}
      <span id={detailsId} className="visually-hidden">
        {t('action.details', { language: t(`languages.${language}`) })}
      </span>
      <span className="visually-hidden">{t('statusLabel', { language: t(`languages.${language}`), state: t(`state.${status.state}`) })}</span>
      {status.message && (
        <span className="lsp-message" data-testid="lsp-message">
          {statusMessageText(t, status.message)}
        </span>
      )}
      {view.guidance && (
        <span className="lsp-message lsp-guidance" data-testid="lsp-guidance">
          {statusMessageText(t, view.guidance)}
        </span>
      )}
      <LspActionButtons view={view} {...handlers} className="lsp-inline-actions" />
      {open && (
        <StatusSurface kind={surface} anchor={trigger} placement="below" labelledBy={titleId} onClose={() => setOpen(false)}>
          <LspStatusDetails language={language} view={view} titleId={titleId} offered={offered} {...handlers}>
            <SessionWatchDetails sessionId={connection.sessionId} />
            <AgentLeasesDetails sessionId={connection.sessionId} />
          </LspStatusDetails>
        </StatusSurface>
      )}
    </div>
  );
}
