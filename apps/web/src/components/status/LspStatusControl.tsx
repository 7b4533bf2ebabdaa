import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { LanguageId } from '@kandev/protocol';
import { useSettings } from '../../app/hooks.js';
import { leaseHints } from '../../app/services.js';
import { statusMessageText } from '../../i18n/i18n.js';
import { shouldAutoStart } from '../../lib/lsp/autoStart.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { availableActions } from '../../lib/lsp/status.js';

interface LspStatusControlProps {
  connection: LspConnection;
  language: LanguageId;
}

/**
 * Plain LSP status of one (session, language): state, a localized message, and the lifecycle
 * action that applies (Start when Off, Stop while running, Retry after an error). Later issues
 * turn this into the popover / drawer / status-bar surfaces; the data-* hooks stay.
 */
export function LspStatusControl({ connection, language }: LspStatusControlProps) {
  const { t } = useTranslation('lsp');
  const status = useSyncExternalStore(connection.subscribe, () => connection.getStatus());
  const settings = useSettings();

  useEffect(() => {
    if (!settings) return;
    const start = shouldAutoStart({
      language,
      state: connection.getStatus().state,
      stoppedByUser: connection.stoppedByUser,
      autoStartLanguages: settings.lsp_auto_start_languages,
      hasLeaseHint: leaseHints.get(connection.sessionId, language) !== undefined,
      phone: false,
    });
    if (start) connection.start();
  }, [connection, language, settings]);

  const actions = availableActions(status);
  const message = status.stopping ? { key: 'message.stopping' } : status.message;
  return (
    <div className="lsp-status" data-testid="lsp-status" data-state={status.state} data-language={language} role="status" aria-live="polite">
      <span className="lsp-status-label">{t('statusLabel', { language: t(`languages.${language}`), state: t(`state.${status.state}`) })}</span>
      {message && (
        <span className="lsp-message" data-testid="lsp-message">
          {statusMessageText(t, message)}
        </span>
      )}
      {actions.start && (
        <button type="button" data-testid="lsp-start" onClick={() => connection.start()}>
          {t('action.start')}
        </button>
      )}
      {actions.stop && (
        <button type="button" data-testid="lsp-stop" onClick={() => connection.stop()}>
          {t('action.stop')}
        </button>
      )}
      {actions.retry && (
        <button type="button" data-testid="lsp-retry" onClick={() => connection.retry()}>
          {t('action.retry')}
        </button>
      )}
    </div>
  );
}
