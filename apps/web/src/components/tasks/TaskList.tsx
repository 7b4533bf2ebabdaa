import { ClipboardList, Plus, RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskSummary } from '../../api/kandevApi.js';
import { useServices } from '../../services/ServicesContext.js';
import { EmptyState, ErrorState, LoadingState } from '../ui/States.js';
import { CreateTaskDialog } from './CreateTaskDialog.js';
import { DeleteTaskDialog } from './DeleteTaskDialog.js';
import { RenameTaskDialog } from './RenameTaskDialog.js';
import { TaskCard } from './TaskCard.js';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'loaded'; tasks: TaskSummary[] };

export function TaskList() {
  const { api } = useServices();
  const { t } = useTranslation();
  const { t: tw } = useTranslation('workbench');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<TaskSummary | undefined>();
  const [deleting, setDeleting] = useState<TaskSummary | undefined>();
  const refresh = useCallback(
    (quiet = false) => {
      if (!quiet) setLoad({ state: 'loading' });
      api.listTasks().then(
        (tasks) => setLoad({ state: 'loaded', tasks }),
        () => setLoad({ state: 'error' }),
      );
    },
    [api],
  );
  useEffect(() => refresh(), [refresh]);
  const tasks = load.state === 'loaded' ? load.tasks : [];

  return (
    <main className="task-list-page">
      <div className="page-header">
        <div>
          <h1>{t('tasks.title')}</h1>
          <p className="page-subtitle">{tw('tasksPage.subtitle')}</p>
        </div>
        <button type="button" className="btn btn-primary" data-testid="new-task" onClick={() => setCreating(true)}>
          <Plus size={16} aria-hidden="true" />
          {tw('tasksPage.newTask')}
        </button>
      </div>
      {load.state === 'loading' && <LoadingState label={t('tasks.loading')} />}
      {load.state === 'error' && (
        <ErrorState
          title={t('tasks.loadFailed')}
          action={
            <button type="button" className="btn btn-sm" onClick={() => refresh()}>
              <RefreshCw size={14} aria-hidden="true" />
              {t('tasks.retry')}
            </button>
          }
        />
      )}
      {load.state === 'loaded' && tasks.length === 0 && (
        <EmptyState
          icon={<ClipboardList size={36} />}
          title={t('tasks.empty')}
          testId="tasks-empty"
          action={
            <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
              <Plus size={16} aria-hidden="true" />
              {tw('tasksPage.createFirst')}
            </button>
          }
        >
          {tw('tasksPage.emptyHint')}
        </EmptyState>
      )}
      <ul data-testid="task-list" className="task-list" aria-label={t('tasks.title')}>
        {tasks.map((task) => (
          <TaskCard key={task.id} task={task} onChanged={() => refresh(true)} onRename={() => setRenaming(task)} onDelete={() => setDeleting(task)} />
        ))}
      </ul>
      <CreateTaskDialog open={creating} onOpenChange={setCreating} onCreated={() => refresh(true)} />
      <RenameTaskDialog task={renaming} onOpenChange={(open) => !open && setRenaming(undefined)} onRenamed={() => refresh(true)} />
      <DeleteTaskDialog task={deleting} onOpenChange={(open) => !open && setDeleting(undefined)} onDeleted={() => refresh(true)} />
    </main>
  );
}
