import { useTranslation } from 'react-i18next';
import { useFormFactor } from '../../app/hooks.js';
import type { Position } from '../../lib/workspace/sessionWorkspace.js';
import { DesktopSession } from './DesktopSession.js';
import { PhoneSession } from './PhoneSession.js';
import { WorkspaceTrustButton } from '../trust/WorkspaceTrustButton.js';

interface SessionViewProps {
  sessionId: string;
  initialFile?: string;
  initialPosition?: Position;
}

/** A session: the Monaco editor with language intelligence, or on phones a read-only viewer (S58). */
export function SessionView({ sessionId, initialFile, initialPosition }: SessionViewProps) {
  const { t } = useTranslation();
  const form = useFormFactor();
  return (
    <main className="session-view" data-testid="session-view" data-session-id={sessionId} data-form-factor={form}>
      <div className="session-header">
        <a href="#/">{t('session.back')}</a>
        <h1>{t('session.title', { id: sessionId })}</h1>
        <WorkspaceTrustButton sessionId={sessionId} />
      </div>
      {form === 'phone' ? (
        <PhoneSession sessionId={sessionId} initialFile={initialFile} />
      ) : (
        <DesktopSession sessionId={sessionId} initialFile={initialFile} initialPosition={initialPosition} />
      )}
    </main>
  );
}
