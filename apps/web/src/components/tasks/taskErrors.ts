import type { TaskInvalid } from '@kandev/protocol';
import { ApiRequestError } from '../../api/kandevApi.js';

/** Where a refused task's copy goes: a field (title, or one repository row) or the whole form. */
export interface TaskFormError {
  field: 'title' | 'repositories' | 'form';
  index?: number;
  /** A key of the workbench catalog. */
  key: string;
}

/** The localized message key for a failed create or rename; never the backend's own text. */
export function taskFormError(err: unknown): TaskFormError {
  if (err instanceof ApiRequestError && err.invalid) return fromInvalid(err.invalid);
  if (err instanceof ApiRequestError && err.status === 404) return { field: 'form', key: 'taskForm.errors.gone' };
  return { field: 'form', key: 'taskForm.errors.failed' };
}

function fromInvalid(invalid: TaskInvalid): TaskFormError {
  const key = `taskForm.errors.${invalid.reason}`;
  if (invalid.field === 'title') return { field: 'title', key };
  if (invalid.field === 'repositories')
    return invalid.index === undefined ? { field: 'repositories', key } : { field: 'repositories', index: invalid.index, key };
  return { field: 'form', key };
}
