/**
 * agentctl's one result shape: what a fallible step returns instead of throwing. Success carries
 * `value`, failure carries `error` (a message, or a record with a `code` when callers branch on it),
 * the same field names as the files API (filesResult.ts) and the backend.
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };
