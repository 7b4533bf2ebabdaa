import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@kandev/protocol';
import {
  BrokerHarness,
  browserCloses,
  INIT_RESULT,
  logs,
  notif,
  ofType,
  openedLease,
  req,
  res,
  settingsWith,
  statusFrames,
  toBrowser,
  toServer,
  WORKSPACE,
} from './testkit.js';
import type { JsonRpcMessage } from './types.js';

function initializeCount(h: BrokerHarness): number {
  return toServer(h.all).filter((m) => m.method === 'initialize').length;
}
function initializedCount(h: BrokerHarness): number {
  return toServer(h.all).filter((m) => m.method === 'initialized').length;
}

describe('launch and the single initialize exchange', () => {
  it('S39 a new lease opens the task host with autoInstall from settings, relays install frames, then ready{resumed:false}', () => {
    const h = new BrokerHarness();
    const fx = h.connect('tab', { language: 'python', settings: settingsWith({}, { lsp_auto_install_languages: ['python'] }) });
    expect(ofType(fx, 'openUpstream')).toEqual([
      { type: 'openUpstream', leaseId: 'L1', sessionId: 's1', language: 'python', autoInstall: true, trustWorkspaceTools: false },
    ]);
    expect(logs(fx)).toEqual(['create/new_lease', 'attach/new_lease']);
    expect(toBrowser(h.hostStatus('L1', { status: 'installing', language: 'python' }), 'tab')).toEqual([{ status: 'installing', language: 'python' }]);
    expect(toBrowser(h.hostStatus('L1', { status: 'installed', language: 'python' }), 'tab')).toEqual([{ status: 'installed', language: 'python' }]);
    expect(toBrowser(h.hostReady('L1', 'python'), 'tab')).toEqual([{ status: 'ready', lease: 'L1', resumed: false, language: 'python', ...WORKSPACE }]);
    // a second host ready, or a late install frame, changes nothing
    expect(h.hostReady('L1', 'python')).toEqual([]);
    expect(h.hostStatus('L1', { status: 'installing', language: 'python' })).toEqual([]);
    expect(ofType(h.connect('other', { settings: DEFAULT_SETTINGS }), 'openUpstream')[0]?.autoInstall).toBe(false);
  });

  it('a browser reattaching while the server is still installing gets the latest install frame, then ready', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.hostStatus(lease, { status: 'installing', language: 'go' });
    h.closeBrowser('tab');
    const back = h.connect('tab2', { hint: lease });
    expect(toBrowser(back, 'tab2')).toEqual([{ status: 'installing', language: 'go' }]);
    expect(statusFrames(h.hostReady(lease), 'tab2')).toEqual([expect.objectContaining({ status: 'ready', resumed: false })]);
  });

  it("an install failure is relayed and the following close passes agentctl's code through", () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    const frame = { status: 'install_failed', language: 'go', error: 'go: module lookup disabled' };
    expect(toBrowser(h.hostStatus(lease, frame), 'tab')).toEqual([frame]);
    const closed = h.upstreamClosed(lease, 4003);
    expect(browserCloses(closed)).toEqual([{ attachmentId: 'tab', code: 4003 }]);
    expect(logs(closed)).toEqual(['exit/start_failed']);
  });

  it('the first initialize is forwarded under a broker id and its result reaches the browser under its own id', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.hostReady(lease);
    const sent = toServer(h.fromBrowser('tab', req('init', 'initialize', { capabilities: {} })), lease)[0] as JsonRpcMessage;
    expect(sent).toMatchObject({ method: 'initialize', id: expect.any(Number) });
    expect(toBrowser(h.fromServer(lease, res(sent.id as number, INIT_RESULT)), 'tab')).toEqual([{ jsonrpc: '2.0', id: 'init', result: INIT_RESULT }]);
    expect(toServer(h.fromBrowser('tab', notif('initialized', {})), lease)).toEqual([{ jsonrpc: '2.0', method: 'initialized', params: {} }]);
    expect(h.fromBrowser('tab', notif('initialized', {}))).toEqual([]);
    expect(initializedCount(h)).toBe(1);
  });

  it('a browser reconnecting before the initialize answer is answered from the one exchange; no second initialize reaches the server', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab1'));
    h.hostReady(lease);
    const first = toServer(h.fromBrowser('tab1', req(1, 'initialize', { capabilities: {} })), lease)[0] as JsonRpcMessage;
    h.closeBrowser('tab1');
    // the reconnecting browser learns only that the process launched, and sends its own initialize
    expect(statusFrames(h.connect('tab2', { hint: lease }), 'tab2')).toEqual([expect.objectContaining({ status: 'ready', resumed: false, lease })]);
    expect(toServer(h.fromBrowser('tab2', req('again', 'initialize', { capabilities: {} })))).toEqual([]);
    const answered = h.fromServer(lease, res(first.id as number, INIT_RESULT));
    expect(toBrowser(answered, 'tab2')).toEqual([{ jsonrpc: '2.0', id: 'again', result: INIT_RESULT }]);
    expect(toServer(answered)).toEqual([]);
    h.fromBrowser('tab2', notif('initialized', {}));
    expect(initializeCount(h)).toBe(1);
    expect(initializedCount(h)).toBe(1);
  });

  it('an answer arriving while no browser is attached is retained and the broker sends initialized itself', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab1'));
    h.hostReady(lease);
    const first = toServer(h.fromBrowser('tab1', req(1, 'initialize', {})), lease)[0] as JsonRpcMessage;
    h.closeBrowser('tab1');
    expect(toServer(h.fromServer(lease, res(first.id as number, INIT_RESULT)), lease)).toEqual([{ jsonrpc: '2.0', method: 'initialized', params: {} }]);
    const ready = statusFrames(h.connect('tab2', { hint: lease }), 'tab2')[0];
    expect(ready).toMatchObject({ status: 'ready', resumed: true, initializeResult: INIT_RESULT, registrations: [], progress: { active: [] } });
    h.fromBrowser('tab2', notif('initialized', {}));
    expect(initializedCount(h)).toBe(1);
  });

  it('a browser gone between the answer and initialized: initialized is sent at detach, once', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab1'));
    h.hostReady(lease);
    const first = toServer(h.fromBrowser('tab1', req(1, 'initialize', {})), lease)[0] as JsonRpcMessage;
    h.fromServer(lease, res(first.id as number, INIT_RESULT));
    const detach = h.closeBrowser('tab1');
    expect(toServer(detach, lease)).toEqual([{ jsonrpc: '2.0', method: 'initialized', params: {} }]);
    h.connect('tab2', { hint: lease });
    expect(h.fromBrowser('tab2', notif('initialized', {}))).toEqual([]);
    expect(initializedCount(h)).toBe(1);
  });

  it('S29 an initialize error reaches the browser as the server sent it, and a retry is forwarded', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.hostReady(lease);
    const first = toServer(h.fromBrowser('tab', req(1, 'initialize', {})), lease)[0] as JsonRpcMessage;
    const error = { jsonrpc: '2.0' as const, id: first.id as number, error: { code: -32603, message: 'no go.mod found' } };
    expect(toBrowser(h.fromServer(lease, error), 'tab')).toEqual([{ ...error, id: 1 }]);
    expect(toServer(h.fromBrowser('tab', req(2, 'initialize', {})), lease)).toHaveLength(1);
  });

  it('a ready frame with a non-string repo subpath ends the lease (1007 upstream), never reaching the browser as ready', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    const fx = h.hostStatus(lease, {
      status: 'ready',
      language: 'go',
      workspaceUri: 'file:///workspace',
      workspacePath: '/workspace',
      repoSubpaths: ['repoA', 7],
    });
    expect(ofType(fx, 'closeUpstream')).toEqual([{ type: 'closeUpstream', leaseId: lease, code: 1007 }]);
    expect(statusFrames(fx, 'tab').filter((f) => f.status === 'ready')).toEqual([]);
    expect(logs(fx)).toEqual(['exit/upstream_lost']);
  });

  it('server notifications reach the attached browser unchanged; a malformed upstream frame ends the lease with 4009', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const log = notif('window/showMessage', { type: 3, message: 'hello' });
    expect(toBrowser(h.fromServer(lease, log), 'tab')).toEqual([log]);
    const fx = h.handle({ type: 'upstreamFrame', leaseId: lease, frame: { kind: 'invalid', reason: 'not_json' } });
    expect(ofType(fx, 'closeUpstream')).toEqual([{ type: 'closeUpstream', leaseId: lease, code: 1007 }]);
    expect(browserCloses(fx)).toEqual([{ attachmentId: 'tab', code: 4009 }]);
    expect(logs(fx)).toEqual(['exit/upstream_lost']);
  });

  it('a malformed browser frame closes that socket 1007 and detaches; the lease survives', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fx = h.handle({ type: 'browserFrame', attachmentId: 'tab', frame: { kind: 'invalid', reason: 'unknown_shape' } });
    expect(browserCloses(fx)).toEqual([{ attachmentId: 'tab', code: 1007 }]);
    expect(logs(fx)).toEqual(['detach/invalid_frame']);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running', detachedAt: h.now });
  });

  it('C14 a stopped session ends its leases: the browser gets 4002, nothing stale stays claimable', () => {
    const h = new BrokerHarness();
    const attached = h.readyLease('a', { session: 'sx' });
    const detached = h.readyLease('b', { session: 'sx' });
    const other = h.readyLease('c', { session: 'sy' });
    h.closeBrowser('b');
    const fx = h.handle({ type: 'sessionStopped', sessionId: 'sx' });
    expect(browserCloses(fx)).toEqual([{ attachmentId: 'a', code: 4002 }]);
    expect(
      ofType(fx, 'closeUpstream')
        .map((c) => c.leaseId)
        .sort(),
    ).toEqual([attached, detached].sort());
    expect(fx.filter((e) => 'leaseId' in e && e.leaseId === other)).toEqual([]);
    expect(ofType(h.connect('d', { session: 'sx', hint: detached }), 'openUpstream')).toHaveLength(1);
  });
});
