import { TASK_INVALID_REASONS } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/kandevApi.js';
import en from '../../locales/en/workbench.json';
import { taskFormError } from './taskErrors.js';

describe('task form errors', () => {
  it('puts a refused repository path at its row with localized copy', () => {
    expect(taskFormError(new ApiRequestError(400, 'bad_request', { field: 'repositories', reason: 'path_missing', index: 1 }))).toEqual({
      field: 'repositories',
      index: 1,
      key: 'taskForm.errors.path_missing',
    });
    expect(taskFormError(new ApiRequestError(400, 'bad_request', { field: 'title', reason: 'title_empty' }))).toEqual({
      field: 'title',
      key: 'taskForm.errors.title_empty',
    });
    expect(taskFormError(new ApiRequestError(500, 'internal'))).toEqual({ field: 'form', key: 'taskForm.errors.failed' });
    expect(taskFormError(new TypeError('network'))).toEqual({ field: 'form', key: 'taskForm.errors.failed' });
  });

  it('has English copy for every reason the backend can send', () => {
    const errors = (en as { taskForm: { errors: Record<string, string> } }).taskForm.errors;
    for (const reason of TASK_INVALID_REASONS) expect(errors[reason], reason).toBeTruthy();
  });
});
