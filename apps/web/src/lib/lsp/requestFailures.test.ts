import { describe, expect, it } from 'vitest';
import { requestDeadlineData, RpcErrorCode } from '@kandev/protocol';
import { REQUEST_CLASSES } from './requestClasses.js';
import { ANNOUNCED_REQUESTS, requestFailureOf, sameFailure } from './requestFailures.js';
import { EndpointClosedError, RequestCancelledError, ResponseError } from './jsonRpc.js';

const deadline = (ms: number) =>
  new ResponseError(RpcErrorCode.RequestCancelled, `the language server did not answer within ${ms / 1000} s`, requestDeadlineData(ms));

describe('which failed requests the person is told about', () => {
  it("the broker's deadline is a timeout that names its length", () => {
    expect(requestFailureOf('textDocument/completion', deadline(30_000), false)).toEqual({ feature: 'completion', reason: 'timeout', deadlineMs: 30_000 });
    expect(requestFailureOf('textDocument/definition', deadline(2_000), false)).toEqual({ feature: 'definition', reason: 'timeout', deadlineMs: 2_000 });
  });

  it("a server's error answer is a failure with the server's own message", () => {
    const error = new ResponseError(RpcErrorCode.InternalError, '  Could not find source file: main.ts \n');
    expect(requestFailureOf('textDocument/definition', error, false)).toEqual({
      feature: 'definition',
      reason: 'error',
      detail: 'Could not find source file: main.ts',
    });
    expect(requestFailureOf('textDocument/hover', new ResponseError(RpcErrorCode.RequestFailed, ''), false)).toEqual({
      feature: 'hover',
      reason: 'error',
      detail: '',
    });
    expect(requestFailureOf('textDocument/references', new ResponseError(RpcErrorCode.ServerNotInitialized, 'initialize first'), false)).toMatchObject({
      reason: 'error',
    });
  });

  it('a request superseded by typing, or dropped by the server to be asked again, is not a failure', () => {
    expect(requestFailureOf('textDocument/completion', new RequestCancelledError(), false)).toBeUndefined();
    expect(requestFailureOf('textDocument/completion', new RequestCancelledError(), true)).toBeUndefined();
    for (const code of [RpcErrorCode.ContentModified, RpcErrorCode.ServerCancelled, RpcErrorCode.RequestCancelled]) {
      expect(requestFailureOf('textDocument/completion', new ResponseError(code, 'cancelled'), false)).toBeUndefined();
    }
    // RequestCancelled with a `data` that is not the broker's deadline is the server's own.
    expect(requestFailureOf('textDocument/hover', new ResponseError(RpcErrorCode.RequestCancelled, 'x', { requestDeadlineMs: 'soon' }), false)).toBeUndefined();
  });

  it('a connection that ended is a loss only when nobody ended it on purpose', () => {
    expect(requestFailureOf('textDocument/signatureHelp', new EndpointClosedError(), true)).toEqual({ feature: 'signatureHelp', reason: 'lost' });
    expect(requestFailureOf('textDocument/signatureHelp', new EndpointClosedError(), false)).toBeUndefined();
  });

  it("the editor's own requests, and asked ones the editor shows elsewhere, stay quiet whatever happened", () => {
    const background = Object.entries(REQUEST_CLASSES)
      .filter(([, rule]) => rule === 'background')
      .map(([method]) => method);
    expect(background.length).toBeGreaterThan(10);
    for (const method of [...background, 'completionItem/resolve', 'textDocument/rename', 'textDocument/prepareRename']) {
      expect(requestFailureOf(method, deadline(30_000), true)).toBeUndefined();
      expect(requestFailureOf(method, new ResponseError(RpcErrorCode.InternalError, 'boom'), true)).toBeUndefined();
      expect(requestFailureOf(method, new EndpointClosedError(), true)).toBeUndefined();
    }
  });

  it('every announced request is one the person asks for (never a background method)', () => {
    for (const method of Object.keys(ANNOUNCED_REQUESTS)) expect(REQUEST_CLASSES[method]).toBe('person');
  });

  it('two failures are the same toast only when they would read the same', () => {
    expect(sameFailure({ feature: 'hover', reason: 'lost' }, { feature: 'hover', reason: 'lost' })).toBe(true);
    expect(sameFailure({ feature: 'hover', reason: 'lost' }, { feature: 'completion', reason: 'lost' })).toBe(false);
    expect(sameFailure({ feature: 'hover', reason: 'error', detail: 'a' }, { feature: 'hover', reason: 'error', detail: 'b' })).toBe(false);
    expect(sameFailure({ feature: 'hover', reason: 'timeout', deadlineMs: 1 }, { feature: 'hover', reason: 'timeout', deadlineMs: 1 })).toBe(true);
    expect(sameFailure({ feature: 'hover', reason: 'timeout', deadlineMs: 1 }, { feature: 'hover', reason: 'lost' })).toBe(false);
  });
});
