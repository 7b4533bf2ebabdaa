import { AlertCircle, AlertTriangle, ExternalLink, Info, X } from 'lucide-react';
import { useRef, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from '../../app/useSnapshot.js';
import { useServices } from '../../services/ServicesContext.js';
import type { ServerToast } from '../../lib/lsp/serverMessages.js';
import { requestFailureText } from '../../i18n/requestFailureText.js';
import type { Locale } from '@kandev/protocol';
import { isLocale } from '../../i18n/i18n.js';
import './servers.css';

/**
 * What servers say, as toasts (docs/editing.md, "What servers say"): messages with their severity
 * (an error stays until dismissed, a repeat adds to its count), questions with their actions, and
 * the external links a server wants opened, which open only when the person agrees, and why a
 * request the person asked for got no answer.
 */
export function ServerToasts() {
  const { serverMessages } = useServices();
  const toasts = useSnapshot(serverMessages.onDidChange, serverMessages.getSnapshot);
  const { t } = useTranslation('faults');
  return (
    <>
      <FailureAnnouncement toasts={toasts} />
      {toasts.length > 0 && (
        <section className="message-strip server-toasts" aria-label={t('messages.region')} data-testid="server-toasts">
          {toasts.map((toast) => (
            <Toast key={toast.id} toast={toast} />
          ))}
        </section>
      )}
    </>
  );
}

/**
 * A live region that is always on the page, so a screen reader hears a failed request the moment
 * its toast appears (a region inserted together with its text is often not read). It says the
 * newest failure once; a repeat only adds to the toast's count.
 */
function FailureAnnouncement({ toasts }: { toasts: readonly ServerToast[] }) {
  const newest = [...toasts].reverse().find((toast) => toast.kind === 'failure');
  const text = useFailureText(newest);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="request-failure-announcement">
      {text}
    </div>
  );
}

/** The failure's sentence in the page's language (requestFailureText). */
function useFailureText(toast: ServerToast | undefined): string {
  const { t, i18n } = useTranslation('faults');
  if (!toast?.failure) return '';
  const locale: Locale = isLocale(i18n.language) ? i18n.language : 'en';
  return requestFailureText(toast.failure, toast.source.language, t, locale);
}

function Toast({ toast }: { toast: ServerToast }) {
  const { t } = useTranslation('faults');
  const { t: tl } = useTranslation('lsp');
  const { serverMessages } = useServices();
  const language = tl(`languages.${toast.source.language}`);
  const failureText = useFailureText(toast);
  // An error or a question is announced at once; the rest politely. A failed request is announced
  // by the page's live region (FailureAnnouncement), so its toast carries no role of its own.
  const urgent = toast.severity === 'error' || toast.kind === 'request' || toast.kind === 'external';
  const role = toast.kind === 'failure' ? undefined : urgent ? 'alert' : 'status';
  const holdHandlers = useHoldWhileEngaged(toast.id);
  return (
    <div
      className={`server-toast server-toast-${toast.severity}`}
      role={role}
      {...holdHandlers}
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
            {toast.kind === 'failure' ? failureText : toast.text}
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

/**
 * A toast stays while the pointer is over it or focus is within it, and its time runs on once both
 * have left (WCAG 2.2.1): the person reading it or reaching its buttons does not lose it.
 */
function useHoldWhileEngaged(id: number) {
  const { serverMessages } = useServices();
  const engaged = useRef({ pointer: false, focus: false });
  const update = (change: Partial<typeof engaged.current>) => {
    const before = engaged.current.pointer || engaged.current.focus;
    engaged.current = { ...engaged.current, ...change };
    const now = engaged.current.pointer || engaged.current.focus;
    if (now !== before) serverMessages.hold(id, now);
  };
  return {
    onPointerEnter: () => update({ pointer: true }),
    onPointerLeave: () => update({ pointer: false }),
    onFocus: () => update({ focus: true }),
    // Focus moving between the toast's own buttons is still focus within it.
    onBlur: (event: FocusEvent<HTMLDivElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) update({ focus: false });
    },
  };
}

function SeverityIcon({ severity, external }: { severity: ServerToast['severity']; external: boolean }) {
  if (external) return <ExternalLink className="server-toast-icon" size={16} aria-hidden="true" />;
  if (severity === 'error') return <AlertCircle className="server-toast-icon" size={16} aria-hidden="true" />;
  if (severity === 'warning') return <AlertTriangle className="server-toast-icon" size={16} aria-hidden="true" />;
  return <Info className="server-toast-icon" size={16} aria-hidden="true" />;
}
