import { AlertCircle, AlertTriangle, ExternalLink, Info, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from '../../app/useSnapshot.js';
import { useServices } from '../../services/ServicesContext.js';
import type { ServerToast } from '../../lib/lsp/serverMessages.js';
import './servers.css';

/**
 * What servers say, as toasts (docs/editing.md, "What servers say"): messages with their severity
 * (an error stays until dismissed, a repeat adds to its count), questions with their actions, and
 * the external links a server wants opened, which open only when the person agrees.
 */
export function ServerToasts() {
  const { serverMessages } = useServices();
  const toasts = useSnapshot(serverMessages.onDidChange, serverMessages.getSnapshot);
  const { t } = useTranslation('faults');
  if (toasts.length === 0) return null;
  return (
    <section className="server-toasts" aria-label={t('messages.region')} data-testid="server-toasts">
      {toasts.map((toast) => (
        <Toast key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

function Toast({ toast }: { toast: ServerToast }) {
  const { t } = useTranslation('faults');
  const { t: tl } = useTranslation('lsp');
  const { serverMessages } = useServices();
  const language = tl(`languages.${toast.source.language}`);
  // An error or a question is announced at once; the rest politely.
  const urgent = toast.severity === 'error' || toast.kind !== 'message';
  return (
    <div
      className={`server-toast server-toast-${toast.severity}`}
      role={urgent ? 'alert' : 'status'}
      data-testid="server-toast"
      data-kind={toast.kind}
      data-severity={toast.severity}
      data-language={toast.source.language}
      data-count={toast.count}
    >
      <SeverityIcon severity={toast.severity} external={toast.kind === 'external'} />
      <div className="server-toast-body">
        <p className="server-toast-source">
          {t(`messages.severity.${toast.severity}`)} · {t('messages.from', { language })}
        </p>
        {toast.kind === 'external' ? (
          <p className="server-toast-text">
            {t('messages.externalAsk')}{' '}
            <span className="server-toast-uri" data-testid="server-toast-uri">
              {toast.uri}
            </span>
          </p>
        ) : (
          <p className="server-toast-text" data-testid="server-toast-text">
            {toast.text}
          </p>
        )}
        {toast.count > 1 && (
          <span className="count-badge server-toast-count" data-testid="server-toast-count" aria-label={t('messages.repeated', { count: toast.count })}>
            ×{toast.count}
          </span>
        )}
        {(toast.actions.length > 0 || toast.kind === 'external') && (
          <div className="server-toast-actions">
            {toast.kind === 'external' ? (
              <button type="button" className="btn btn-sm btn-primary" data-testid="server-toast-action" onClick={() => serverMessages.choose(toast.id, 0)}>
                {t('messages.externalOpen')}
              </button>
            ) : (
              toast.actions.map((title, index) => (
                <button
                  key={index}
                  type="button"
                  className="btn btn-sm"
                  data-testid="server-toast-action"
                  onClick={() => serverMessages.choose(toast.id, index)}
                >
                  {title}
                </button>
              ))
            )}
          </div>
        )}
      </div>
      <button
        type="button"
        className="icon-button server-toast-close"
        data-testid="server-toast-dismiss"
        aria-label={t('messages.dismiss')}
        title={t('messages.dismiss')}
        onClick={() => serverMessages.dismiss(toast.id)}
      >
        <X size={14} aria-hidden="true" />
      </button>
    </div>
  );
}

function SeverityIcon({ severity, external }: { severity: ServerToast['severity']; external: boolean }) {
  if (external) return <ExternalLink className="server-toast-icon" size={16} aria-hidden="true" />;
  if (severity === 'error') return <AlertCircle className="server-toast-icon" size={16} aria-hidden="true" />;
  if (severity === 'warning') return <AlertTriangle className="server-toast-icon" size={16} aria-hidden="true" />;
  return <Info className="server-toast-icon" size={16} aria-hidden="true" />;
}
