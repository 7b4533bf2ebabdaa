import * as z from 'zod/mini';

/**
 * One way every hop checks a shape that arrives from another process (a frame, a body, a stored
 * row): its zod schema, and on failure an error with a code and a message that names where and what.
 * A refused value is refused whole; nothing is dropped or guessed.
 */
export interface WireShapeError {
  code: 'invalid_shape';
  /** `<source>: <path>: <what is wrong>`, e.g. `ready frame: trustedTools.tools.python: must be a non-empty string`. */
  message: string;
  /** The dotted path of the first wrong member (`''` for the value itself). */
  path: string;
}

export type WireShapeResult<T> = { ok: true; value: T } | { ok: false; error: WireShapeError };

/** The value as `schema` reads it, or the first issue (in member order) as a WireShapeError. */
export function parseWireShape<S extends z.ZodMiniType>(schema: S, value: unknown, source: string): WireShapeResult<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const path = issue.path.map(String).join('.');
  return { ok: false, error: { code: 'invalid_shape', message: path === '' ? `${source}: ${issue.message}` : `${source}: ${path}: ${issue.message}`, path } };
}

/** A string with at least one character. */
export function nonEmptyString(error: string) {
  return z.string({ error }).check(z.minLength(1, { error }));
}
