import { isRecord, type TaskPatch } from '@kandev/protocol';
import { ok, type Result } from '../base/result.js';
import { parseTitle, refuse, type TaskInputError } from './taskValidation.js';

const PATCHABLE = new Set(['title', 'trustWorkspaceTools']);

/**
 * Validates `PATCH /api/tasks/:id`: a new title and/or the workspace trust switch. Only the fields
 * a person may change after creation are accepted (the workspace is fixed once sessions exist); an
 * unknown field or a wrong type refuses the whole body, so nothing is half-applied.
 */
export function parseTaskPatch(body: unknown): Result<TaskPatch, TaskInputError> {
  if (!isRecord(body)) return refuse('the body must be a JSON object', { field: 'body', reason: 'body' });
  const record = body;
  const unknown = Object.keys(record).filter((key) => !PATCHABLE.has(key));
  if (unknown.length > 0) return refuse(`cannot change ${unknown.map((k) => JSON.stringify(k.slice(0, 64))).join(', ')}`, { field: 'body', reason: 'body' });
  const patch: TaskPatch = {};
  if ('title' in record) {
    const title = parseTitle(record.title);
    if (!title.ok) return title;
    patch.title = title.value;
  }
  if ('trustWorkspaceTools' in record) {
    if (typeof record.trustWorkspaceTools !== 'boolean') {
      return refuse('trustWorkspaceTools must be true or false', { field: 'trustWorkspaceTools', reason: 'trust_invalid' });
    }
    patch.trustWorkspaceTools = record.trustWorkspaceTools;
  }
  if (Object.keys(patch).length === 0) return refuse('nothing to change', { field: 'body', reason: 'nothing_to_change' });
  return ok(patch);
}
