import { MAX_TASK_TITLE_CHARS, SUPPORTED_EXECUTORS, EXECUTOR_KINDS, type ExecutorKind, type Task } from '@kandev/protocol';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../services/ServicesContext.js';
import { Dialog } from '../ui/Dialog.js';
import { taskFormError, type TaskFormError } from './taskErrors.js';

interface CreateTaskDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  onCreated(task: Task): void;
}

/**
 * New task: a title, where it runs (Local PC or Local Docker; the other executors are listed,
 * disabled, with the reason) and one or more absolute repository folders, which the backend
 * checks; its refusal is shown at the field it concerns.
 */
export function CreateTaskDialog({ open, onOpenChange, onCreated }: CreateTaskDialogProps) {
  const { api } = useServices();
  const { t } = useTranslation('workbench');
  const { t: tc } = useTranslation();
  const [title, setTitle] = useState('');
  const [executor, setExecutor] = useState<ExecutorKind>('local_pc');
  const [paths, setPaths] = useState<string[]>(['']);
  const [error, setError] = useState<TaskFormError | undefined>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTitle('');
    setExecutor('local_pc');
    setPaths(['']);
    setError(undefined);
    setSaving(false);
  }, [open]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(undefined);
    api.createTask({ title, executor, repositories: paths.map((path) => ({ path: path.trim() })) }).then(
      (task) => {
        setSaving(false);
        onOpenChange(false);
        onCreated(task);
      },
      (err: unknown) => {
        setSaving(false);
        setError(taskFormError(err));
      },
    );
  };

  const fieldError = (field: TaskFormError['field'], index?: number) =>
    error && error.field === field && (index === undefined || error.index === undefined || error.index === index) ? error : undefined;
  const titleError = fieldError('title');
  const repoListError = error?.field === 'repositories' && error.index === undefined ? error : undefined;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('taskForm.createTitle')}
      description={t('taskForm.createDescription')}
      testId="create-task-dialog"
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            {t('common.cancel')}
          </button>
          <button type="submit" form="create-task-form" className="btn btn-primary" data-testid="create-task-submit" disabled={saving}>
            {saving ? t('taskForm.creating') : t('taskForm.create')}
          </button>
        </>
      }
    >
      <form id="create-task-form" className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="task-title">{t('taskForm.title')}</label>
          <input
            id="task-title"
            className="input"
            data-testid="task-title-input"
            value={title}
            maxLength={MAX_TASK_TITLE_CHARS}
            autoComplete="off"
            placeholder={t('taskForm.titlePlaceholder')}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? 'task-title-error' : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {titleError && (
            <p id="task-title-error" className="field-error" data-testid="task-error" data-field="title">
              {t(titleError.key)}
            </p>
          )}
        </div>
        <fieldset className="field">
          <legend>{t('taskForm.executor')}</legend>
          <div className="choice-list">
            {EXECUTOR_KINDS.map((kind) => {
              const supported = SUPPORTED_EXECUTORS.includes(kind);
              return (
                <label key={kind} className={`choice${supported ? '' : ' disabled'}${executor === kind ? ' checked' : ''}`}>
                  <input
                    type="radio"
                    name="executor"
                    value={kind}
                    data-testid="task-executor"
                    checked={executor === kind}
                    disabled={!supported}
                    aria-describedby={supported ? undefined : `executor-${kind}-reason`}
                    onChange={() => setExecutor(kind)}
                  />
                  <span className="choice-label">{tc(`tasks.executor.${kind}`)}</span>
                  {!supported && (
                    <span className="choice-note" id={`executor-${kind}-reason`}>
                      {t('taskForm.executorUnavailable')}
                    </span>
                  )}
                </label>
              );
            })}
          </div>
        </fieldset>
        <fieldset className="field">
          <legend>{t('taskForm.repositories')}</legend>
          <p className="field-hint" id="repo-hint">
            {executor === 'local_pc' ? t('taskForm.repositoriesHintLocal') : t('taskForm.repositoriesHintDocker')}
          </p>
          {paths.map((path, index) => {
            const rowError = error?.field === 'repositories' && error.index === index ? error : undefined;
            return (
              <div key={index} className="repo-row">
                <div className="repo-input">
                  <input
                    className="input input-mono"
                    data-testid="task-repo-input"
                    value={path}
                    placeholder={t('taskForm.pathPlaceholder')}
                    aria-label={t('taskForm.repositoryN', { n: index + 1 })}
                    aria-invalid={rowError ? true : undefined}
                    aria-describedby={rowError ? `repo-error-${index}` : 'repo-hint'}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => setPaths(paths.map((p, i) => (i === index ? e.target.value : p)))}
                  />
                  {paths.length > 1 && (
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={t('taskForm.removeRepository', { n: index + 1 })}
                      onClick={() => setPaths(paths.filter((_, i) => i !== index))}
                    >
                      <Trash2 size={14} aria-hidden="true" />
                    </button>
                  )}
                </div>
                {rowError && (
                  <p id={`repo-error-${index}`} className="field-error" data-testid="task-error" data-field="repositories" data-index={index}>
                    {t(rowError.key)}
                  </p>
                )}
              </div>
            );
          })}
          {repoListError && (
            <p className="field-error" data-testid="task-error" data-field="repositories">
              {t(repoListError.key)}
            </p>
          )}
          <button type="button" className="btn btn-ghost btn-sm" data-testid="task-repo-add" onClick={() => setPaths([...paths, ''])}>
            <Plus size={14} aria-hidden="true" />
            {t('taskForm.addRepository')}
          </button>
        </fieldset>
        {error?.field === 'form' && (
          <p className="field-error" role="alert" data-testid="task-error" data-field="form">
            {t(error.key)}
          </p>
        )}
      </form>
    </Dialog>
  );
}
