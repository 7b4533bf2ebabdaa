import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Session } from '@kandev/protocol';
import type { TaskSummary } from '../../api/kandevApi.js';
import { sessionHash } from '../../app/route.js';
import { api } from '../../app/services.js';
import { rememberSession, rememberedSessions } from './startedSessions.js';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'loaded'; tasks: TaskSummary[] };

export function TaskList() {
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const refresh = useCallback(() => {
    setLoad({ state: 'loading' });
    api.listTasks().then(
      (tasks) => setLoad({ state: 'loaded', tasks }),
      () => setLoad({ state: 'error' }),
    );
  }, []);
  useEffect(refresh, [refresh]);

  return (
    <main className="task-list-page">
      <h1>{t('tasks.title')}</h1>
      {load.state === 'loading' && <p>{t('tasks.loading')}</p>}
      {load.state === 'error' && (
        <p role="alert">
          {t('tasks.loadFailed')}{' '}
          <button type="button" onClick={refresh}>
            {t('tasks.retry')}
          </button>
        </p>
      )}
      {load.state === 'loaded' && load.tasks.length === 0 && <p>{t('tasks.empty')}</p>}
      <ul data-testid="task-list" className="task-list">
        {load.state === 'loaded' && load.tasks.map((task) => <TaskRow key={task.id} task={task} />)}
      </ul>
    </main>
  );
}

function TaskRow({ task }: { task: TaskSummary }) {
  const { t } = useTranslation();
  const [starting, setStarting] = useState(false);
  const [failed, setFailed] = useState(false);
  const start = () => {
    setStarting(true);
    setFailed(false);
    api.startSession(task.id).then(
      (session) => {
        rememberSession(task.id, session);
        window.location.hash = sessionHash(session.id);
      },
      () => {
        setStarting(false);
        setFailed(true);
      },
    );
  };
  const sessions = mergeSessions(task.sessions ?? [], rememberedSessions(task.id)).filter((s) => s.status === 'running' || s.status === 'starting');
  return (
    <li data-testid="task-row" data-task-id={task.id} className="task-row">
      <div className="task-main">
        <strong className="task-title">{task.title}</strong>
        <span className="task-meta">{t(`tasks.executor.${task.executor}`, { defaultValue: task.executor })}</span>
        {task.repositories.length > 0 && <span className="task-meta">{t('tasks.repositories', { list: task.repositories.map((r) => r.path).join(', ') })}</span>}
      </div>
      <button type="button" data-testid="start-session" onClick={start} disabled={starting}>
        {starting ? t('tasks.starting') : t('tasks.startSession')}
      </button>
      {failed && <span role="alert">{t('tasks.startFailed')}</span>}
      {sessions.length > 0 && (
        <ul className="task-sessions" aria-label={t('tasks.sessions')}>
          {sessions.map((s) => (
            <li key={s.id}>
              <a href={sessionHash(s.id)} data-testid="session-link" data-session-id={s.id}>
                {t('tasks.openSession', { id: s.id })}
              </a>{' '}
              <span className="task-meta">{t(`tasks.sessionStatus.${s.status}`)}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function mergeSessions(fromApi: Session[], local: Session[]): Session[] {
  const byId = new Map<string, Session>();
  for (const s of local) byId.set(s.id, s);
  for (const s of fromApi) byId.set(s.id, s); // the backend knows better
  return [...byId.values()];
}
