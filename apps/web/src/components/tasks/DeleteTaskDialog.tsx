import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskSummary } from '../../api/kandevApi.js';
import { useServices } from '../../services/ServicesContext.js';
import { forgetTabs } from '../../lib/workspace/tabMemory.js';
import { Dialog } from '../ui/Dialog.js';

/** Deleting a task: a confirmation that says its running sessions stop first. */
export function DeleteTaskDialog({ task, onOpenChange, onDeleted }: { task: TaskSummary | undefined; onOpenChange(open: boolean): void; onDeleted(): void }) {
  const { api } = useServices();
  const { t } = useTranslation('workbench');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setBusy(false);
    setFailed(false);
  }, [task]);
  const running = (task?.sessions ?? []).filter((s) => s.status === 'running' || s.status === 'starting').length;
  const confirm = () => {
    if (!task) return;
    setBusy(true);
    setFailed(false);
    api.deleteTask(task.id).then(
      () => {
        for (const s of task.sessions ?? []) forgetTabs(safeStorage(), s.id);
        onOpenChange(false);
        onDeleted();
      },
      () => {
        setBusy(false);
        setFailed(true);
      },
    );
  };
  return (
    <Dialog
      open={task !== undefined}
      onOpenChange={onOpenChange}
      title={t('taskForm.deleteTitle', { title: task?.title ?? '' })}
      description={running > 0 ? t('taskForm.deleteRunning', { count: running }) : t('taskForm.deleteIdle')}
      size="sm"
      testId="delete-task-dialog"
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-danger" data-testid="delete-task-confirm" disabled={busy} onClick={confirm}>
            {busy ? (running > 0 ? t('taskForm.stoppingAndDeleting') : t('taskForm.deleting')) : t('taskForm.delete')}
          </button>
        </>
      }
    >
      {failed && (
        <p className="field-error" role="alert">
          {t('taskForm.deleteFailed')}
        </p>
      )}
    </Dialog>
  );
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
