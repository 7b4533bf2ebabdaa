/**
 * `PATCH /api/tasks/:id` is validated by packages/protocol's schema alone: a title and the trust
 * switch need nothing from this host.
 */
export { parseTaskPatchBody as parseTaskPatch } from '@kandev/protocol';
