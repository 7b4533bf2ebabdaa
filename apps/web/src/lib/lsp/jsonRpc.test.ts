import { beforeEach, describe, expect, it } from 'vitest';
import { Emitter } from '@kandev/kit';
import { EndpointClosedError, ErrorCodes, JsonRpcEndpoint, RequestCancelledError, ResponseError, type JsonRpcMessage } from './jsonRpc.js';
import { createServerRequestRouter } from './serverRequests.js';

function endpoint(onRequest: (method: string, params: unknown) => unknown = () => null) {
  const sent: JsonRpcMessage[] = [];
  const notifications: Array<[string, unknown]> = [];
  const rpc = new JsonRpcEndpoint((m) => void sent.push(m), { onRequest, onNotification: (m, p) => void notifications.push([m, p]) });
  return { rpc, sent, notifications };
}

function cancellation() {
  const emitter = new Emitter<void>();
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => emitter.event(l),
  };
  return { token, cancel: () => ((token.isCancellationRequested = true), emitter.fire()) };
}

describe('JsonRpcEndpoint', () => {
  it('numbers requests, resolves replies by id and routes notifications', async () => {
    const { rpc, sent, notifications } = endpoint();
    const a = rpc.request('a', { x: 1 });
    const b = rpc.request('b', undefined);
    expect(sent.map((m) => [m.id, m.method])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect('params' in (sent[1] as object)).toBe(false);
    rpc.handle({ jsonrpc: '2.0', id: 2, result: 'B' });
    rpc.handle({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    await expect(a).resolves.toEqual({ ok: true });
    await expect(b).resolves.toBe('B');
    rpc.handle({ jsonrpc: '2.0', method: 'window/logMessage', params: { message: 'hi' } });
    expect(notifications).toEqual([['window/logMessage', { message: 'hi' }]]);
    expect(rpc.pendingCount).toBe(0);
  });

  it('rejects with a ResponseError whose message is the error.message string', async () => {
    const { rpc } = endpoint();
    const p = rpc.request('initialize', {});
    rpc.handle({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'server exploded', data: { x: 1 } } });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseError);
    expect((err as ResponseError).message).toBe('server exploded');
    expect((err as ResponseError).code).toBe(-32603);
  });

  it('cancellation sends $/cancelRequest, rejects, and drops the late reply', async () => {
    const { rpc, sent } = endpoint();
    const { token, cancel } = cancellation();
    const p = rpc.request('textDocument/hover', {}, token);
    cancel();
    await expect(p).rejects.toBeInstanceOf(RequestCancelledError);
    expect(sent.at(-1)).toEqual({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 1 } });
    rpc.handle({ jsonrpc: '2.0', id: 1, result: 'late' });
    expect(rpc.pendingCount).toBe(0);
  });

  it('dispose rejects pending requests and ignores everything after', async () => {
    const { rpc, sent } = endpoint();
    const p = rpc.request('x', {});
    rpc.dispose();
    await expect(p).rejects.toBeInstanceOf(EndpointClosedError);
    await expect(rpc.request('y', {})).rejects.toBeInstanceOf(EndpointClosedError);
    rpc.notify('z');
    expect(sent).toHaveLength(1);
  });

  it('answers server requests with results, thrown ResponseErrors, and a generic internal error', async () => {
    const { rpc, sent } = endpoint((method) => {
      if (method === 'ok') return [null];
      if (method === 'bad') throw new ResponseError(ErrorCodes.InvalidParams, 'bad params');
      throw new Error('secret stack detail');
    });
    rpc.handle({ jsonrpc: '2.0', id: 'a', method: 'ok' });
    rpc.handle({ jsonrpc: '2.0', id: 'b', method: 'bad' });
    rpc.handle({ jsonrpc: '2.0', id: 'c', method: 'boom' });
    await Promise.resolve();
    await Promise.resolve();
    // Answers may complete in any order; each id gets exactly one.
    expect([...sent].sort((x, y) => String(x.id).localeCompare(String(y.id)))).toEqual([
      { jsonrpc: '2.0', id: 'a', result: [null] },
      { jsonrpc: '2.0', id: 'b', error: { code: -32602, message: 'bad params' } },
      { jsonrpc: '2.0', id: 'c', error: { code: -32603, message: 'internal error' } },
    ]);
  });
});

describe('server request router', () => {
  // What the handlers were asked, from this test on: each test reads only its own calls.
  const calls: string[] = [];
  beforeEach(() => void calls.splice(0));
  const route = createServerRequestRouter({
    configuration: (items) => items.map(() => null),
    registerCapability: (regs) => void calls.push(`register:${regs.length}`),
    unregisterCapability: (regs) => void calls.push(`unregister:${regs.length}`),
    semanticTokensRefresh: () => void calls.push('refresh'),
    diagnosticRefresh: () => void calls.push('diagnosticRefresh'),
    inlayHintRefresh: () => void calls.push('inlayHintRefresh'),
    codeLensRefresh: () => void calls.push('codeLensRefresh'),
    showMessageRequest: (params) => Promise.resolve((params as { actions: unknown[] }).actions[0]),
    showDocument: () => Promise.resolve({ success: true }),
    applyEdit: async () => ({ applied: false, failureReason: 'test' }),
  });

  it('answers configuration with one null per item, tracks registrations, accepts progress create and refresh', () => {
    expect(route('workspace/configuration', { items: [{ section: 'python' }, { section: 'python.analysis' }] })).toEqual([null, null]);
    expect(route('client/registerCapability', { registrations: [{ id: '1', method: 'textDocument/hover' }] })).toBeNull();
    expect(route('client/unregisterCapability', { unregisterations: [{ id: '1', method: 'textDocument/hover' }] })).toBeNull();
    expect(route('window/workDoneProgress/create', { token: 't' })).toBeNull();
    expect(route('workspace/semanticTokens/refresh', undefined)).toBeNull();
    expect(calls).toEqual(['register:1', 'unregister:1', 'refresh']);
  });

  it('answers an unknown server request with MethodNotFound, never silence', async () => {
    const { rpc, sent } = endpoint(route);
    rpc.handle({ jsonrpc: '2.0', id: 7, method: 'workspace/willRenameFiles/unknown', params: {} });
    await Promise.resolve();
    await Promise.resolve();
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: ErrorCodes.MethodNotFound, message: 'Unhandled method workspace/willRenameFiles/unknown' } },
    ]);
  });

  it('workspace/applyEdit is answered with what applying returned; diagnostic and inlay hint refreshes are taken', async () => {
    const { rpc, sent } = endpoint(route);
    rpc.handle({ jsonrpc: '2.0', id: 8, method: 'workspace/applyEdit', params: { edit: { changes: {} } } });
    for (let i = 0; i < 4; i++) await Promise.resolve();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 8, result: { applied: false, failureReason: 'test' } }]);
    expect(route('workspace/diagnostic/refresh', undefined)).toBeNull();
    expect(route('workspace/inlayHint/refresh', undefined)).toBeNull();
    expect(route('workspace/codeLens/refresh', undefined)).toBeNull();
    expect(calls.slice(-3)).toEqual(['diagnosticRefresh', 'inlayHintRefresh', 'codeLensRefresh']);
  });
});
