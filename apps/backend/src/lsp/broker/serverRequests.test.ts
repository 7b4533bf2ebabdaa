import { describe, expect, it } from 'vitest';
import { MAX_RETAINED_LEASE_STATE_BYTES } from '@kandev/protocol';
import { RegistrationSet } from './registrations.js';
import { answerLocally, applyBrowserSuccess, ForwardedServerRequests, routeServerRequest } from './serverRequests.js';

const ctx = (config?: Record<string, unknown>) => ({
  config,
  registrations: new RegistrationSet(MAX_RETAINED_LEASE_STATE_BYTES),
  workspaceFolders: [{ uri: 'file:///w', name: 'w' }],
});

describe('server requests answered by the broker', () => {
  it('workspace/configuration answers each item from settings by its section (S23)', () => {
    const config = { gopls: { staticcheck: true, 'ui.semanticTokens': true }, 'python.analysis': { typeCheckingMode: 'strict' } };
    const params = { items: [{ section: 'gopls' }, { section: 'gopls.staticcheck' }, { section: 'missing' }, {}, { section: 'python.analysis' }] };
    expect(answerLocally(4, 'workspace/configuration', params, ctx(config))).toEqual({
      jsonrpc: '2.0',
      id: 4,
      result: [config.gopls, true, null, config, { typeCheckingMode: 'strict' }],
    });
    expect(answerLocally(5, 'workspace/configuration', { items: [{ section: 'gopls' }] }, ctx(undefined))).toEqual({ jsonrpc: '2.0', id: 5, result: [null] });
  });

  it('tracks client/registerCapability and client/unregisterCapability as an effective set', () => {
    const c = ctx();
    const reg = (id: string, method: string) => ({ id, method, registerOptions: { documentSelector: [{ language: 'go' }] } });
    expect(
      answerLocally(1, 'client/registerCapability', { registrations: [reg('r1', 'textDocument/hover'), reg('r2', 'workspace/didChangeWatchedFiles')] }, c),
    ).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect(answerLocally(2, 'client/unregisterCapability', { unregisterations: [{ id: 'r1', method: 'textDocument/hover' }] }, c)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: null,
    });
    expect(c.registrations.list().map((r) => r.id)).toEqual(['r2']);
    applyBrowserSuccess('client/registerCapability', { registrations: [reg('r3', 'textDocument/completion')] }, c.registrations);
    expect(c.registrations.list().map((r) => r.id)).toEqual(['r2', 'r3']);
  });

  it('answers progress creation, refreshes, message and document requests without a browser', () => {
    const c = ctx();
    expect(answerLocally(1, 'window/workDoneProgress/create', { token: 't' }, c)).toMatchObject({ result: null });
    for (const m of ['workspace/semanticTokens/refresh', 'workspace/inlayHint/refresh', 'workspace/codeLens/refresh', 'workspace/diagnostic/refresh']) {
      expect(answerLocally(2, m, undefined, c)).toMatchObject({ id: 2, result: null });
    }
    expect(answerLocally(3, 'window/showMessageRequest', { type: 1, message: 'x', actions: [{ title: 'ok' }] }, c)).toMatchObject({ result: null });
    expect(answerLocally(4, 'window/showDocument', { uri: 'file:///w/a' }, c)).toMatchObject({ result: { success: false } });
    expect(answerLocally(5, 'workspace/workspaceFolders', undefined, c)).toMatchObject({ result: [{ uri: 'file:///w', name: 'w' }] });
  });

  it('an unsupported server request gets JSON-RPC method-not-found (-32601), never silence', () => {
    expect(answerLocally('k', 'workspace/inlineCompletion/refresh', {}, ctx())).toEqual({
      jsonrpc: '2.0',
      id: 'k',
      error: { code: -32601, message: 'Unhandled method workspace/inlineCompletion/refresh' },
    });
    expect(answerLocally(9, 'custom/somethingElse', undefined, ctx())).toMatchObject({ error: { code: -32601 } });
  });

  it('workspace/applyEdit goes to an attached browser; with none the broker answers applied:false with a reason', () => {
    expect(routeServerRequest('workspace/applyEdit', true)).toBe('browser');
    expect(routeServerRequest('workspace/applyEdit', false)).toBe('broker');
    expect(answerLocally(7, 'workspace/applyEdit', { edit: { changes: {} } }, ctx())).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { applied: false, failureReason: 'no editor is attached to apply the edit' },
    });
  });

  it('refuses a registration that would exceed the retained-state budget', () => {
    const c = { ...ctx(), registrations: new RegistrationSet(200) };
    const big = { registrations: [{ id: 'big', method: 'x', registerOptions: { pad: 'p'.repeat(500) } }] };
    expect(answerLocally(1, 'client/registerCapability', big, c)).toMatchObject({ error: { code: -32803 } });
    expect(c.registrations.list()).toEqual([]);
  });

  it('routes: configuration is always the broker; registration, refresh, showMessageRequest go to an attached browser', () => {
    expect(routeServerRequest('workspace/configuration', true)).toBe('broker');
    expect(routeServerRequest('window/workDoneProgress/create', true)).toBe('broker');
    expect(routeServerRequest('client/registerCapability', true)).toBe('browser');
    expect(routeServerRequest('workspace/semanticTokens/refresh', true)).toBe('browser');
    expect(routeServerRequest('window/showMessageRequest', true)).toBe('browser');
    expect(routeServerRequest('window/showMessageRequest', false)).toBe('broker');
    expect(routeServerRequest('unknown/method', true)).toBe('broker');
  });
});

describe('ForwardedServerRequests', () => {
  it('maps browser-facing ids back to server ids, only for the generation it was sent to', () => {
    const f = new ForwardedServerRequests();
    const a = f.add('srv-1', 'window/showMessageRequest', {}, 1);
    const b = f.add(7, 'client/registerCapability', {}, 1);
    expect(a.clientId).not.toBe(b.clientId);
    expect(f.take(a.clientId, 2)).toBeUndefined();
    expect(f.take(a.clientId, 1)?.serverId).toBe('srv-1');
    expect(f.byServerId(7)?.clientId).toBe(b.clientId);
    expect(f.drainGeneration(1).map((e) => e.serverId)).toEqual([7]);
    expect(f.size).toBe(0);
  });
});
