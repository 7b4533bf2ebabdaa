/** The files API's result type, shared by files/ and files/search/ (so it lives in base/, no folder cycle). */
import type { ApiErrorCode } from '@kandev/protocol';
import type { Result } from './result.js';

/** A files-API failure as a value: the API error code, its HTTP status, and a message for the caller. */
export interface FilesError {
  status: 400 | 403 | 404 | 409 | 413 | 500;
  code: ApiErrorCode;
  message: string;
}

export type FilesResult<T> = Result<T, FilesError>;

export const ok = <T>(value: T): FilesResult<T> => ({ ok: true, value });

export function fail<T = never>(status: FilesError['status'], code: ApiErrorCode, message: string): FilesResult<T> {
  return { ok: false, error: { status, code, message } };
}

export const outside = <T = never>(): FilesResult<T> => fail(403, 'path_outside_workspace', 'path is outside the workspace');
export const notFound = <T = never>(): FilesResult<T> => fail(404, 'not_found', 'no such file or directory');
