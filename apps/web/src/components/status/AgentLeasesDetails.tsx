import { useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { after, type Disposable } from '@kandev/kit';
import type { AgentLeasesResponse, Locale } from '@kandev/protocol';
import { formatElapsed } from '../../i18n/format.js';
import { isLocale } from '../../i18n/i18n.js';
import { useServices } from '../../services/ServicesContext.js';
import { ClockContext } from '../../app/clock.js';

/** While the details are open, what the agents hold is asked again this often. */
export const AGENT_LEASES_REFRESH_MS = 5_000;

/**
 * In the status details: the language servers the session's agents hold (over MCP), apart from
 * the person's own, so a server running for an agent is never a mystery. Asked when the details
 * open and every few seconds while they stay open.
 */
export function AgentLeasesDetails({ sessionId }: { sessionId: string }) {
  const { t, i18n } = useTranslation('lsp');
  const locale: Locale = isLocale(i18n.language) ? i18n.language : 'en';
  const { api } = useServices();
  const clock = useContext(ClockContext);
  const [answer, setAnswer] = useState<AgentLeasesResponse | 'failed' | undefined>(undefined);

  useEffect(() => {
    let live = true;
    let timer: Disposable | undefined;
    const ask = () => {
      api.agentLeases(sessionId).then(
        (value) => live && setAnswer(value),
        () => live && setAnswer('failed'),
      );
      timer = after(clock, AGENT_LEASES_REFRESH_MS, ask);
    };
    ask();
    return () => {
      live = false;
      timer?.dispose();
    };
  }, [api, clock, sessionId]);

  if (answer === undefined) return null;
  return (
    <section className="lsp-details-section" data-testid="lsp-agent-leases" data-count={answer === 'failed' ? undefined : answer.leases.length}>
      <h3>{t('agents.title')}</h3>
      {answer === 'failed' && <p data-testid="lsp-agent-leases-failed">{t('agents.failed')}</p>}
      {answer !== 'failed' && answer.leases.length === 0 && <p data-testid="lsp-agent-leases-none">{t('agents.none')}</p>}
      {answer !== 'failed' && answer.leases.length > 0 && (
        <>
          <ul className="lsp-agent-leases">
            {answer.leases.map((lease) => (
              <li key={lease.language} data-testid="lsp-agent-lease" data-language={lease.language} data-state={lease.state}>
                {t('agents.lease', { language: t(`languages.${lease.language}`, { defaultValue: lease.language }), state: t(`agents.state.${lease.state}`) })}
              </li>
            ))}
          </ul>
          <p className="lsp-agent-leases-note">{t('agents.idle', { elapsed: formatElapsed(answer.idleReleaseMs, t, locale) })}</p>
        </>
      )}
    </section>
  );
}
