import type { TaskPatch } from '@kandev/protocol';
import { apiError, fail, ok, type Result } from '../result.js';

const PATCHABLE = new Set(['trustWorkspaceTools']);

/**
 * Validates `PATCH /api/tasks/:id`. Only the fields a person may change after creation are
 * accepted; an unknown field or a wrong type is refused whole, so nothing is half-applied.
 */
export function parseTaskPatch(body: unknown): Result<TaskPatch> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail(apiError('bad_request', 'the body must be a JSON object'));
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !PATCHABLE.has(key));
  if (unknown.length > 0) return fail(apiError('bad_request', `cannot change ${unknown.map((k) => JSON.stringify(k.slice(0, 64))).join(', ')}`));
  const patch: TaskPatch = {};
  if ('trustWorkspaceTools' in record) {
    if (typeof record.trustWorkspaceTools !== 'boolean') return fail(apiError('bad_request', 'trustWorkspaceTools must be true or false'));
    patch.trustWorkspaceTools = record.trustWorkspaceTools;
  }
  if (Object.keys(patch).length === 0) return fail(apiError('bad_request', 'nothing to change'));
  return ok(patch);
}
