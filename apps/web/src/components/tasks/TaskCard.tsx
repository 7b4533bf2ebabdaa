import type { Session } from '@kandev/protocol';
import { Ellipsis, FolderGit2, Pencil, Play, Plus, Square, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskSummary } from '../../api/kandevApi.js';
import { sessionHash } from '../../app/route.js';
import { useServices } from '../../services/ServicesContext.js';
import { Menu } from '../ui/Menu.js';
import { ExecutorBadge } from './ExecutorBadge.js';
import { formatStartTime } from './formatTime.js';
import { SessionStateBadge } from './SessionStateBadge.js';
import { refusedSessionId, unsupportedOpenTarget } from '../../lib/sessions/sessionBody.js';

const SHOWN_SESSIONS = 5;

const isLive = (s: Session) => s.status === 'running' || s.status === 'starting';

/** The session opening a task resumes: its newest running one. */
export function resumableSession(sessions: readonly Session[]): Session | undefined {
  return [...sessions].reverse().find((s) => s.status === 'running');
}

interface TaskCardProps {
  task: TaskSummary;
  onChanged(): void;
  onRename(): void;
  onDelete(): void;
}

/**
 * One task: its title, executor and folders; Open resumes its running session (or starts one
 * when none runs); New session and Stop are explicit; its sessions list with state and start time.
 */
export function TaskCard({ task, onChanged, onRename, onDelete }: TaskCardProps) {
  const { api } = useServices();
  const { t, i18n } = useTranslation();
  const { t: tw } = useTranslation('workbench');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<'start' | 'stop' | undefined>();
  const sessions = task.sessions ?? [];
  const resumable = resumableSession(sessions);
  const opensExisting = resumable !== undefined || unsupportedOpenTarget(task) !== undefined;
  const newest = [...sessions].reverse();
  const shown = newest.slice(0, SHOWN_SESSIONS);

  const start = () => {
    setBusy(true);
    setFailed(undefined);
    api.startSession(task.id).then(
      (session) => {
        window.location.hash = sessionHash(session.id);
      },
      (err: unknown) => {
        // An unsupported executor (S26) records a failed session; open it so its view says why.
        const refused = refusedSessionId(err);
        if (refused) {
          window.location.hash = sessionHash(refused);
          return;
        }
        setBusy(false);
        setFailed('start');
        onChanged();
      },
    );
  };
  const open = () => {
    const target = resumable?.id ?? unsupportedOpenTarget(task);
    if (target) window.location.hash = sessionHash(target);
    else start();
  };
  const stop = (session: Session) => {
    setBusy(true);
    setFailed(undefined);
    api.stopSession(session.id).then(
      () => {
        setBusy(false);
        onChanged();
      },
      () => {
        setBusy(false);
        setFailed('stop');
      },
    );
  };

  return (
    <li data-testid="task-row" data-task-id={task.id} className="task-card">
      <div className="task-card-top">
        <div className="task-main">
          <h2 className="task-title">{task.title}</h2>
          <div className="task-meta-row">
            <ExecutorBadge executor={task.executor} />
            {task.repositories.map((r) => (
              <span key={r.path} className="task-repo" title={r.path}>
                <FolderGit2 size={13} aria-hidden="true" />
                <span className="task-repo-path">{r.path}</span>
              </span>
            ))}
          </div>
        </div>
        <div className="task-actions">
          <button type="button" className="btn btn-primary" data-testid="start-session" data-resumes={resumable?.id} onClick={open} disabled={busy}>
            <Play size={14} aria-hidden="true" />
            {busy ? t('tasks.starting') : opensExisting ? tw('tasksPage.open') : t('tasks.startSession')}
          </button>
          {resumable && (
            <button type="button" className="btn" data-testid="new-session" onClick={start} disabled={busy}>
              <Plus size={14} aria-hidden="true" />
              {tw('sessions.new')}
            </button>
          )}
          <Menu
            label={tw('tasksPage.more', { title: task.title })}
            trigger={<Ellipsis size={16} aria-hidden="true" />}
            testId="task-menu"
            items={[
              { id: 'rename', label: tw('tasksPage.rename'), icon: <Pencil size={14} />, onSelect: onRename, testId: 'task-rename' },
              { id: 'delete', label: tw('tasksPage.delete'), icon: <Trash2 size={14} />, onSelect: onDelete, danger: true, testId: 'task-delete' },
            ]}
          />
        </div>
      </div>
      {failed && (
        <p role="alert" className="inline-error">
          {failed === 'start' ? t('tasks.startFailed') : t('session.stopFailed')}
        </p>
      )}
      {shown.length > 0 && (
        <div className="task-sessions">
          <h3 className="task-sessions-title">{t('tasks.sessions')}</h3>
          <ul aria-label={t('tasks.sessions')}>
            {shown.map((s) => (
              <li key={s.id} className="session-row" data-testid="session-row" data-session-id={s.id} data-state={s.status}>
                <SessionStateBadge status={s.status} />
                <span className="meta-text">{tw('sessions.startedAt', { time: formatStartTime(s.createdAt, i18n.language) })}</span>
                <span className="session-id">{s.id.slice(0, 8)}</span>
                <span className="session-row-actions">
                  {isLive(s) && (
                    <>
                      <a href={sessionHash(s.id)} className="btn btn-sm btn-ghost" data-testid="session-link" data-session-id={s.id}>
                        {tw('sessions.open')}
                      </a>
                      <button type="button" className="btn btn-sm btn-ghost" data-testid="task-session-stop" onClick={() => stop(s)} disabled={busy}>
                        <Square size={12} aria-hidden="true" />
                        {tw('sessions.stop')}
                      </button>
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
          {newest.length > shown.length && <p className="meta-text">{tw('sessions.older', { count: newest.length - shown.length })}</p>}
        </div>
      )}
    </li>
  );
}
