import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageId } from '@kandev/protocol';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { LspStatusDetails } from '../status/LspStatusDetails.js';
import { useOfferedFeatures } from '../status/LspOfferedFeatures.js';
import { SessionWatchDetails } from '../live/SessionWatchDetails.js';
import { AgentLeasesDetails } from '../status/AgentLeasesDetails.js';
import { LspSummary } from '../status/LspSummary.js';
import { StatusSurface } from '../status/StatusSurface.js';
import { useLspView } from '../status/useLspView.js';

/**
 * The status-bar item of the active Monaco file: its language and live summary; pressing it opens
 * the same details as the toolbar popover, above the bar. Only rendered for a mounted editor of a
 * supported file on a fine pointer (S50-S53).
 */
export function LspStatusBarItem({
  connection,
  language,
  onKeyDown,
}: {
  connection: LspConnection;
  language: LanguageId;
  onKeyDown(e: KeyboardEvent<HTMLElement>): void;
}) {
  const { t } = useTranslation('lsp');
  const view = useLspView(connection, language);
  const offered = useOfferedFeatures(connection);
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="status-bar-button lsp-trigger"
        data-testid="lsp-statusbar-item"
        data-state={view.state}
        data-language={language}
        data-session-id={connection.sessionId}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-describedby={descriptionId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onKeyDown}
      >
        <LspSummary language={language} view={view} />
      </button>
      {/* The visible summary names the button (WCAG 2.5.3); the full sentence describes it. */}
      <span id={descriptionId} className="visually-hidden">
        {t('statusLabel', { language: t(`languages.${language}`), state: t(`state.${view.state}`) })}
      </span>
      {open && (
        <StatusSurface kind="popover" anchor={trigger} placement="above" labelledBy={titleId} onClose={() => setOpen(false)}>
          <LspStatusDetails
            language={language}
            view={view}
            titleId={titleId}
            offered={offered}
            onStart={() => connection.start()}
            onStop={() => connection.stop()}
            onRetry={() => connection.retry()}
          >
            <SessionWatchDetails sessionId={connection.sessionId} />
            <AgentLeasesDetails sessionId={connection.sessionId} />
          </LspStatusDetails>
        </StatusSurface>
      )}
    </>
  );
}
