import { ArrowLeft, Plus, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormFactor } from '../../app/hooks.js';
import { useSnapshot } from '../../app/useSnapshot.js';
import { sessionHash } from '../../app/route.js';
import { useServices } from '../../services/ServicesContext.js';
import type { Position } from '../../lib/workspace/sessionWorkspace.js';
import { ExecutorBadge } from '../tasks/ExecutorBadge.js';
import { formatStartTime } from '../tasks/formatTime.js';
import { SessionStateBadge } from '../tasks/SessionStateBadge.js';
import { DesktopSession } from './DesktopSession.js';
import { PhoneSession } from './PhoneSession.js';
import { WorkspaceTrustButton } from '../trust/WorkspaceTrustButton.js';
import { useSessionInfo } from './useSessionInfo.js';
import { sessionBody } from '../../lib/sessions/sessionBody.js';
import { UnsupportedExecutorNotice } from './UnsupportedExecutorNotice.js';

interface SessionViewProps {
  sessionId: string;
  initialFile?: string;
  initialPosition?: Position;
}

/** A session: the Monaco editor with language intelligence, or on phones a read-only viewer (S58). */
export function SessionView({ sessionId, initialFile, initialPosition }: SessionViewProps) {
  const { t, i18n } = useTranslation();
  const { t: tw } = useTranslation('workbench');
  const { api, sessions, access } = useServices();
  // Signed out, the page hears nothing more about the session and could not stop it: its last
  // known state would be a claim, so the header says it is unknown and offers no Stop.
  const signedOut = useSnapshot(access.onDidChange, () => access.state) === 'signed-out';
  const form = useFormFactor();
  const { info, setSession } = useSessionInfo(sessionId);
  const [busy, setBusy] = useState<'stopping' | 'starting' | undefined>();
  const [failure, setFailure] = useState<'stop' | 'start' | undefined>();
  const session = info.state === 'loaded' ? info.session : undefined;
  const task = info.state === 'loaded' ? info.task : undefined;
  const live = !signedOut && (session?.status === 'running' || session?.status === 'starting');
  // Until the session and its task are known, mount nothing that could list files or open an /lsp
  // socket: an unsupported executor (S26) must not get either.
  const body = session ? sessionBody(session, task) : info.state === 'loading' ? 'loading' : 'workbench';
  const unsupported = body === 'unsupported';

  // An ended session is left for good: its connections detach and its workspace is disposed.
  useEffect(() => {
    if (body === 'ended') sessions.leave(sessionId);
  }, [body, sessions, sessionId]);

  useEffect(() => {
    document.title = task ? tw('shell.documentTitle', { title: task.title }) : t('app.title');
    return () => {
      document.title = t('app.title');
    };
  }, [task, t, tw]);

  const stop = () => {
    setBusy('stopping');
    setFailure(undefined);
    api
      .stopSession(sessionId)
      .then(
        () => api.getSession(sessionId).then(setSession, () => undefined),
        () => setFailure('stop'),
      )
      .finally(() => setBusy(undefined));
  };
  const newSession = () => {
    if (!session) return;
    setBusy('starting');
    setFailure(undefined);
    api.startSession(session.taskId).then(
      (started) => {
        window.location.hash = sessionHash(started.id);
      },
      () => {
        setBusy(undefined);
        setFailure('start');
      },
    );
  };

  return (
    <main className="session-view" data-testid="session-view" data-session-id={sessionId} data-form-factor={form}>
      <div className="session-header" data-testid="session-header">
        <a href="#/" className="icon-button session-back" aria-label={t('session.back')} title={t('session.back')}>
          <ArrowLeft size={16} aria-hidden="true" />
        </a>
        <div className="session-heading">
          <h1 data-testid="session-task-title">
            {task ? task.title : info.state === 'loading' ? tw('shell.loadingSession') : t('session.title', { id: sessionId.slice(0, 8) })}
          </h1>
          <div className="session-meta">
            {task && <ExecutorBadge executor={task.executor} testId="session-executor" />}
            {session && <SessionStateBadge status={signedOut ? 'unknown' : session.status} testId="session-state" />}
            {session && <span className="meta-text">{tw('sessions.startedAt', { time: formatStartTime(session.createdAt, i18n.language) })}</span>}
          </div>
        </div>
        <div className="session-actions">
          {!unsupported && <WorkspaceTrustButton sessionId={sessionId} />}
          {failure && (
            <span role="alert" className="inline-error">
              {failure === 'stop' ? t('session.stopFailed') : t('tasks.startFailed')}
            </span>
          )}
          {live && !unsupported && (
            <button type="button" className="btn btn-sm" data-testid="session-stop" onClick={stop} disabled={busy !== undefined}>
              <Square size={12} aria-hidden="true" />
              {busy === 'stopping' ? t('session.stopping') : tw('sessions.stop')}
            </button>
          )}
          {!unsupported && (
            <button type="button" className="btn btn-sm" data-testid="session-new" onClick={newSession} disabled={!session || busy !== undefined}>
              <Plus size={14} aria-hidden="true" />
              {busy === 'starting' ? t('tasks.starting') : tw('sessions.new')}
            </button>
          )}
        </div>
      </div>
      {body === 'loading' ? null : unsupported && task ? (
        <UnsupportedExecutorNotice executor={task.executor} />
      ) : session && body === 'ended' ? (
        <div className="session-ended" data-testid="session-ended" data-state={session.status}>
          <p className="empty-state-title">{tw(session.status === 'failed' ? 'sessions.failedTitle' : 'sessions.stoppedTitle')}</p>
          <p className="empty-state-text">{tw('sessions.endedHint')}</p>
          <button type="button" className="btn btn-primary" onClick={newSession} disabled={busy !== undefined}>
            <Plus size={14} aria-hidden="true" />
            {tw('sessions.new')}
          </button>
        </div>
      ) : form === 'phone' ? (
        <PhoneSession sessionId={sessionId} initialFile={initialFile} />
      ) : (
        <DesktopSession sessionId={sessionId} initialFile={initialFile} initialPosition={initialPosition} />
      )}
    </main>
  );
}
