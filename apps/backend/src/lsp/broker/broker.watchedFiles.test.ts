import { describe, expect, it } from 'vitest';
import { BrokerHarness, ofType, req, res, toBrowser } from './testkit.js';
import type { JsonRpcMessage } from './types.js';

const goWatchers = [{ globPattern: '**/*.{go,mod,sum}' }];
const pyWatchers = [{ globPattern: { baseUri: 'file:///workspace', pattern: '**/*.py' }, kind: 7 }];

describe('broker: the server’s file watchers go to the task host with the lease', () => {
  it('a registration answered by the browser hands its watchers to agentctl once; an unrelated one hands nothing', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const reg = { id: 'w1', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: goWatchers } };
    const fwd = toBrowser(h.fromServer(lease, req(1, 'client/registerCapability', { registrations: [reg] })), 'tab')[0] as JsonRpcMessage;
    // Nothing is handed over before the registration succeeded.
    expect(ofType(h.all, 'watchFiles')).toEqual([]);
    expect(ofType(h.fromBrowser('tab', res(fwd.id as number, null)), 'watchFiles')).toEqual([{ type: 'watchFiles', leaseId: lease, watchers: goWatchers }]);
    const other = { id: 's1', method: 'textDocument/semanticTokens', registerOptions: {} };
    const fwd2 = toBrowser(h.fromServer(lease, req(2, 'client/registerCapability', { registrations: [other] })), 'tab')[0] as JsonRpcMessage;
    expect(ofType(h.fromBrowser('tab', res(fwd2.id as number, null)), 'watchFiles')).toEqual([]);
  });

  it('while detached the broker registers itself and still hands the watchers over; unregistering hands over none', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.closeBrowser('tab');
    const reg = { id: 'w1', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: pyWatchers } };
    expect(ofType(h.fromServer(lease, req(1, 'client/registerCapability', { registrations: [reg] })), 'watchFiles')).toEqual([
      { type: 'watchFiles', leaseId: lease, watchers: pyWatchers },
    ]);
    expect(ofType(h.fromServer(lease, req(2, 'client/unregisterCapability', { unregisterations: [{ id: 'w1', method: reg.method }] })), 'watchFiles')).toEqual([
      { type: 'watchFiles', leaseId: lease, watchers: [] },
    ]);
  });

  it('a browser that refuses the registration hands nothing over', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const reg = { id: 'w1', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: goWatchers } };
    const fwd = toBrowser(h.fromServer(lease, req(1, 'client/registerCapability', { registrations: [reg] })), 'tab')[0] as JsonRpcMessage;
    const refused = h.fromBrowser('tab', { jsonrpc: '2.0', id: fwd.id as number, error: { code: -32601, message: 'no' } });
    expect(ofType(refused, 'watchFiles')).toEqual([]);
  });
});
