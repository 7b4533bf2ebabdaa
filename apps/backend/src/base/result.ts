import type { ApiError, ApiErrorCode } from '@kandev/protocol';

/** Errors are values: every fallible operation of the backend returns one of these. */
export type Result<T, E = ApiError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<E>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}

export function apiError(code: ApiErrorCode, message: string): ApiError {
  return { code, message };
}

/** The message of an unknown thrown value, for logs and error values; never `[object Object]`. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}
