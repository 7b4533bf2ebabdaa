/** A field value: scalars and string lists only, so a line stays small and flat. */
export type LogValue = string | number | boolean | null | undefined | readonly string[];
export type LogFields = Record<string, LogValue>;

/** A chatty server's stderr line or a long path is cut here, so one line cannot flood the log. */
export const MAX_LOG_FIELD_CHARS = 2_000;
export const MAX_LOG_LIST_ITEMS = 50;

/**
 * Keys whose values are never written, whatever a caller passes: the bearer and access tokens,
 * cookies, and lease ids (a lease id is a capability: whoever holds it may attach).
 */
const REDACTED_KEYS = new Set(['token', 'accesstoken', 'bearer', 'authorization', 'cookie', 'secret', 'password', 'leaseid', 'leasehint']);
export const REDACTED = '[redacted]';

function bounded(value: string): string {
  return value.length > MAX_LOG_FIELD_CHARS ? `${value.slice(0, MAX_LOG_FIELD_CHARS)}…` : value;
}

/** The fields as written: undefined dropped, strings and lists bounded, secret keys redacted. */
export function boundFields(fields: LogFields | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!fields) return out;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // `event`, `level` and `time` belong to the line itself.
    if (key === 'event' || key === 'level' || key === 'time') continue;
    if (REDACTED_KEYS.has(key.toLowerCase())) out[key] = REDACTED;
    else if (typeof value === 'string') out[key] = bounded(value);
    else if (Array.isArray(value)) out[key] = value.slice(0, MAX_LOG_LIST_ITEMS).map((item: string) => bounded(String(item)));
    else out[key] = value;
  }
  return out;
}

/** Error detail for logs without stacks: code and message only. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return { error: err.message, errorCode: typeof code === 'string' ? code : undefined };
  }
  return { error: String(err) };
}
