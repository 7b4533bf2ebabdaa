import { ErrorCodes, LSPErrorCodes } from 'vscode-languageserver-protocol';
import { describe, expect, it } from 'vitest';
import { RpcErrorCode } from './jsonRpc.js';
import { isRecord } from './records.js';

describe('RpcErrorCode', () => {
  it('has the values of vscode-languageserver-protocol', () => {
    const reference: Record<keyof typeof RpcErrorCode, number> = {
      ParseError: ErrorCodes.ParseError,
      InvalidRequest: ErrorCodes.InvalidRequest,
      MethodNotFound: ErrorCodes.MethodNotFound,
      InvalidParams: ErrorCodes.InvalidParams,
      InternalError: ErrorCodes.InternalError,
      ServerNotInitialized: ErrorCodes.ServerNotInitialized,
      RequestFailed: LSPErrorCodes.RequestFailed,
      ServerCancelled: LSPErrorCodes.ServerCancelled,
      ContentModified: LSPErrorCodes.ContentModified,
      RequestCancelled: LSPErrorCodes.RequestCancelled,
    };
    expect(RpcErrorCode).toEqual(reference);
  });
});

describe('isRecord', () => {
  it('accepts plain objects only', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
    expect(isRecord(1)).toBe(false);
  });
});
