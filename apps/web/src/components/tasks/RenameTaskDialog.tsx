import { MAX_TASK_TITLE_CHARS } from '@kandev/protocol';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskSummary } from '../../api/kandevApi.js';
import { useServices } from '../../services/ServicesContext.js';
import { Dialog } from '../ui/Dialog.js';
import { taskFormError, type TaskFormError } from './taskErrors.js';

export function RenameTaskDialog({ task, onOpenChange, onRenamed }: { task: TaskSummary | undefined; onOpenChange(open: boolean): void; onRenamed(): void }) {
  const { api } = useServices();
  const { t } = useTranslation('workbench');
  const [title, setTitle] = useState('');
  const [error, setError] = useState<TaskFormError | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setTitle(task?.title ?? '');
    setError(undefined);
    setSaving(false);
  }, [task]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!task) return;
    setSaving(true);
    api.renameTask(task.id, title).then(
      () => {
        onOpenChange(false);
        onRenamed();
      },
      (err: unknown) => {
        setSaving(false);
        setError(taskFormError(err));
      },
    );
  };
  return (
    <Dialog
      open={task !== undefined}
      onOpenChange={onOpenChange}
      title={t('taskForm.renameTitle')}
      size="sm"
      testId="rename-task-dialog"
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </button>
          <button type="submit" form="rename-task-form" className="btn btn-primary" data-testid="rename-task-submit" disabled={saving}>
            {t('taskForm.rename')}
          </button>
        </>
      }
    >
      <form id="rename-task-form" className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="rename-task-title">{t('taskForm.title')}</label>
          <input
            id="rename-task-title"
            className="input"
            data-testid="rename-task-input"
            value={title}
            maxLength={MAX_TASK_TITLE_CHARS}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'rename-task-error' : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {error && (
            <p id="rename-task-error" className="field-error" data-testid="task-error">
              {t(error.key)}
            </p>
          )}
        </div>
      </form>
    </Dialog>
  );
}
