import { describe, expect, it } from 'vitest';
import { BrokerHarness, browserCloses, logs, ofType, openedLease, req, res, toBrowser, toServer } from './testkit.js';
import type { Effect, JsonRpcMessage } from './types.js';

/** A compact, ordered trace of what the wiring would do. */
function trace(effects: readonly Effect[]): string[] {
  return effects.flatMap((e) => {
    switch (e.type) {
      case 'sendToUpstream':
        return [`server:${typeof e.message.method === 'string' ? e.message.method : `response#${String(e.message.id)}`}`];
      case 'sendToBrowser':
        return [`browser:${'status' in e.frame ? `status=${String(e.frame.status)}` : 'error' in e.frame ? 'error' : String(e.frame.method ?? 'response')}`];
      case 'closeBrowser':
        return [`closeBrowser:${e.code}`];
      case 'closeUpstream':
        return [`closeUpstream:${e.code}`];
      case 'releaseUpstream':
        return ['releaseUpstream'];
      case 'releaseSlot':
        return ['releaseSlot'];
      case 'log':
        return [`log:${e.event}/${e.reason}`];
      default:
        return [];
    }
  });
}

describe('release (Stop, editor idle) versus detach', () => {
  it("C06 editor-idle release is acknowledged: reject pending, shutdown, exit, release-stream, agentctl's reaped report, then released and 1000", () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const pending = toServer(h.fromBrowser('tab', req(7, 'textDocument/references', {})))[0] as JsonRpcMessage;
    const start = h.control('tab', { control: 'release', reason: 'editor_idle' });
    expect(trace(start)).toEqual(['releaseSlot', 'log:release/editor_idle', 'browser:error', 'server:shutdown']);
    expect(toBrowser(start, 'tab')).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32800, message: expect.any(String) } }]);
    const shutdownId = (toServer(start, lease)[0] as JsonRpcMessage).id as number;
    // the release is under way: new requests are refused, nothing else reaches the server
    expect(toServer(h.fromBrowser('tab', req(8, 'textDocument/hover', {})))).toEqual([]);
    const answered = h.fromServer(lease, res(shutdownId, null));
    expect(trace(answered)).toEqual(['server:exit', 'releaseUpstream']);
    // the late reply to the rejected request is dropped
    expect(h.fromServer(lease, res(pending.id as number, []))).toEqual([]);
    const reaped = h.hostStatus(lease, { status: 'reaped', clean: true });
    expect(trace(reaped)).toEqual(['log:exit/reaped', 'browser:status=released', 'closeBrowser:1000', 'closeUpstream:1000']);
    expect(toBrowser(reaped, 'tab')).toEqual([{ status: 'released', reason: 'editor_idle' }]);
    expect(h.broker.lease(lease)).toBeUndefined();
    expect(h.armedTimers().size).toBe(0);
    // the lease hint is now useless: the next open starts a new lease
    expect(openedLease(h.connect('tab2', { hint: lease }))).not.toBe(lease);
  });

  it('C06 tab close before the idle timer only detaches: no shutdown, the lease stays claimable', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fx = h.closeBrowser('tab');
    expect(
      trace(fx).filter((t) => t.startsWith('server:shutdown') || t.startsWith('server:exit') || t.startsWith('closeUpstream') || t === 'releaseSlot'),
    ).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running', detachedAt: h.now });
    expect(logs(h.connect('tab2', { hint: lease }))).toEqual(['reattach/lease_hint']);
  });

  it('C06 explicit stop uses the same handshake and echoes its reason', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const start = h.control('tab', { control: 'release', reason: 'stop' });
    expect(logs(start)).toEqual(['release/stop']);
    h.fromServer(lease, res((toServer(start)[0] as JsonRpcMessage).id as number, null));
    expect(toBrowser(h.hostStatus(lease, { status: 'reaped', clean: true }), 'tab')).toEqual([{ status: 'released', reason: 'stop' }]);
    expect(h.broker.metrics().releasedTotal.stop).toBe(1);
  });

  it('a server that ignores shutdown gets exit after the bounded wait', () => {
    const h = new BrokerHarness({ shutdownWaitMs: 5_000 });
    const lease = h.readyLease('tab');
    const shutdownId = (toServer(h.control('tab', { control: 'release', reason: 'stop' }))[0] as JsonRpcMessage).id as number;
    expect(h.advance(4_999)).toEqual([]);
    expect(trace(h.advance(1))).toEqual(['server:exit', 'releaseUpstream']);
    // a late shutdown answer changes nothing
    expect(h.fromServer(lease, res(shutdownId, null))).toEqual([]);
  });

  it('when agentctl never confirms the reaping the browser is closed 4009, never told released', () => {
    const h = new BrokerHarness({ shutdownWaitMs: 5_000, reapWaitMs: 10_000 });
    const lease = h.readyLease('tab');
    h.control('tab', { control: 'release', reason: 'stop' });
    h.advance(5_000);
    const timeout = h.advance(10_000);
    expect(trace(timeout)).toEqual(['log:exit/reap_timeout', 'closeBrowser:4009']);
    expect(h.broker.lease(lease)).toBeUndefined();
    expect(h.upstreamClosed(lease, 1000)).toEqual([]);
  });

  it('a browser that closes during the release does not stop it, and gets nothing afterwards', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const start = h.control('tab', { control: 'release', reason: 'stop' });
    expect(h.closeBrowser('tab')).toEqual([]);
    const after = h.fromServer(lease, res((toServer(start)[0] as JsonRpcMessage).id as number, null));
    expect(trace(after)).toEqual(['server:exit', 'releaseUpstream']);
    expect(trace(h.hostStatus(lease, { status: 'reaped', clean: true }))).toEqual(['log:exit/reaped', 'closeUpstream:1000']);
  });

  it("released is never sent on the stream's close alone: a launched server needs agentctl's reaped report", () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const start = h.control('tab', { control: 'release', reason: 'stop' });
    h.fromServer(lease, res((toServer(start)[0] as JsonRpcMessage).id as number, null));
    const closed = h.upstreamClosed(lease, 1000);
    expect(trace(closed)).toEqual(['log:exit/reap_timeout', 'closeBrowser:4009']);
    expect(toBrowser(closed, 'tab')).toEqual([]);
  });

  it('agentctl reporting survivors after its kill deadline ends the release with 4009, not released', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const start = h.control('tab', { control: 'release', reason: 'stop' });
    h.fromServer(lease, res((toServer(start)[0] as JsonRpcMessage).id as number, null));
    expect(trace(h.hostStatus(lease, { status: 'reaped', clean: false }))).toEqual(['log:exit/reap_incomplete', 'closeBrowser:4009', 'closeUpstream:1000']);
    expect(h.broker.lease(lease)).toBeUndefined();
  });

  it('a reaped report nobody asked for changes nothing', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    expect(h.hostStatus(lease, { status: 'reaped', clean: true })).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running' });
  });

  it('a browser sending release-stream is ignored: that control belongs to the task-host hop', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    expect(h.control('tab', { control: 'release-stream' })).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running' });
  });

  it('release while the task host is still starting closes the stream without shutdown', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.hostStatus(lease, { status: 'installing', language: 'go' });
    const start = h.control('tab', { control: 'release', reason: 'stop' });
    expect(trace(start)).toEqual(['releaseSlot', 'log:release/stop', 'closeUpstream:1000']);
    // agentctl cancels the install and closes; that is the confirmation
    expect(toBrowser(h.upstreamClosed(lease, 1001), 'tab')).toEqual([{ status: 'released', reason: 'stop' }]);
  });

  it('release of a launched server that was never initialized sends exit without shutdown', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    h.hostReady(lease);
    expect(trace(h.control('tab', { control: 'release', reason: 'editor_idle' }))).toEqual([
      'releaseSlot',
      'log:release/editor_idle',
      'server:exit',
      'releaseUpstream',
    ]);
  });

  it('server requests forwarded to the releasing browser are answered by the broker', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.fromServer(lease, req('m1', 'window/showMessageRequest', { type: 1, message: 'Reload?', actions: [{ title: 'Yes' }] }));
    const start = h.control('tab', { control: 'release', reason: 'stop' });
    expect(toServer(start, lease)).toEqual([{ jsonrpc: '2.0', id: 'm1', result: null }, expect.objectContaining({ method: 'shutdown' })]);
    expect(browserCloses(start)).toEqual([]);
    expect(ofType(start, 'armTimer').map((t) => t.timerId)).toEqual([`shutdown:${lease}`]);
  });
});
