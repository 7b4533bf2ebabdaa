import { describe, expect, it } from 'vitest';
import { BrokerHarness, browserCloses, didOpen, INIT_RESULT, logs, ofType, req, res, statusFrames, toBrowser, toServer, WORKSPACE } from './testkit.js';
import type { JsonRpcMessage } from './types.js';

/** A crashed server (agentctl: server_exited with its stderr tail, then 4006). */
function crash(h: BrokerHarness, lease: string, stderrTail = 'panic: boom') {
  h.hostStatus(lease, { status: 'server_exited', language: 'go', stderrTail });
  return h.upstreamClosed(lease, 4006);
}

/** After the backoff: agentctl launches the new process, the broker initializes it, it answers. */
function restartCompletes(h: BrokerHarness, lease: string, backoffMs: number, result: unknown = INIT_RESULT) {
  const opened = h.advance(backoffMs);
  expect(ofType(opened, 'openUpstream')).toHaveLength(1);
  const ready = h.hostReady(lease);
  const [initialize] = toServer(ready, lease);
  expect(initialize).toMatchObject({ method: 'initialize' });
  return { initialize: initialize as JsonRpcMessage, answered: h.fromServer(lease, res((initialize as JsonRpcMessage).id as number, result)) };
}

describe('crash budget: a leased server that exits unexpectedly is restarted', () => {
  it('restarting{attempt,of,stderrTail} reaches the browser, pending requests are cancelled, and after the backoff the broker initializes the new process itself', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.fromBrowser('tab', req(9, 'textDocument/hover', {}));
    const crashed = crash(h, lease);
    expect(toBrowser(crashed, 'tab')).toEqual([
      { jsonrpc: '2.0', id: 9, error: { code: -32800, message: expect.any(String) } },
      { status: 'restarting', language: 'go', attempt: 1, of: 5, stderrTail: 'panic: boom' },
    ]);
    expect(browserCloses(crashed)).toEqual([]);
    expect(ofType(crashed, 'releaseSlot')).toEqual([]);
    expect(logs(crashed)).toEqual(['restart/server_exit']);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'starting', attachmentId: 'tab' });

    // Nothing before the backoff; then one new stream.
    expect(ofType(h.advance(999), 'openUpstream')).toEqual([]);
    const { initialize, answered } = restartCompletes(h, lease, 1);
    // The params the browser gave the first process, under the broker's own id.
    expect(initialize.params).toEqual({ capabilities: {}, workspaceFolders: [{ uri: WORKSPACE.workspaceUri, name: 'w' }] });
    expect(toServer(answered, lease).map((m) => m.method)).toEqual(['initialized']);
    const [ready] = statusFrames(answered, 'tab');
    expect(ready).toMatchObject({ status: 'ready', lease, resumed: true, initializeResult: INIT_RESULT });

    // The browser resumes as on a reattach: its documents reach the new process, versions keep rising.
    const opened = toServer(h.fromBrowser('tab', didOpen('file:///workspace/a.go', 1, 'package a')), lease);
    expect(opened).toHaveLength(1);
    expect(statusFrames(h.control('tab', { control: 'attachment-ready' }), 'tab')).toEqual([{ status: 'synchronized' }]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running' });
  });

  it('browser traffic during the restart never reaches the new process before the broker initialized it', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    crash(h, lease);
    const early = h.fromBrowser('tab', req(3, 'textDocument/hover', {}));
    expect(toServer(early)).toEqual([]);
    expect(toBrowser(early, 'tab')).toEqual([{ jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: expect.any(Number) }) }]);
    expect(toServer(h.fromBrowser('tab', didOpen('file:///workspace/a.go', 1)))).toEqual([]);
  });

  it('backs off 1, 2, 4, 8, 16 s for five crashes within three minutes; the sixth ends the lease with server_exited and 4006', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const backoffs = [1_000, 2_000, 4_000, 8_000, 16_000];
    backoffs.forEach((backoff, i) => {
      expect(statusFrames(crash(h, lease, `crash ${i + 1}`), 'tab')).toEqual([
        { status: 'restarting', language: 'go', attempt: i + 1, of: 5, stderrTail: `crash ${i + 1}` },
      ]);
      expect(ofType(h.advance(backoff - 1), 'openUpstream')).toEqual([]);
      restartCompletes(h, lease, 1);
    });
    const last = crash(h, lease, 'fatal: out of memory');
    expect(statusFrames(last, 'tab')).toEqual([{ status: 'server_exited', language: 'go', stderrTail: 'fatal: out of memory' }]);
    expect(browserCloses(last)).toEqual([{ attachmentId: 'tab', code: 4006 }]);
    expect(ofType(last, 'releaseSlot')).toEqual([{ type: 'releaseSlot', leaseId: lease }]);
    expect(h.broker.lease(lease)).toBeUndefined();
    expect(h.broker.metrics().releasedTotal.server_exit).toBe(1);
    expect(h.armedTimers().size).toBe(0);
  });

  it('the budget is a sliding three-minute window: crashes further apart are always restarted as a first attempt', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    for (let i = 0; i < 7; i++) {
      expect(statusFrames(crash(h, lease), 'tab')[0]).toMatchObject({ status: 'restarting', attempt: 1 });
      restartCompletes(h, lease, 1_000);
      h.advance(3 * 60_000);
    }
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running' });
  });

  it('a detached lease is restarted too, and the browser that comes back resumes from the new process', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.closeBrowser('tab');
    expect(toBrowser(crash(h, lease))).toEqual([]);
    restartCompletes(h, lease, 1_000, { capabilities: { hoverProvider: true, definitionProvider: true } });
    const back = statusFrames(h.connect('tab2', { hint: lease }), 'tab2');
    expect(back).toEqual([
      expect.objectContaining({ status: 'ready', resumed: true, initializeResult: { capabilities: { hoverProvider: true, definitionProvider: true } } }),
    ]);
  });

  it('a server that exits before it was ever initialized is not restarted: 4006 as before', () => {
    const h = new BrokerHarness();
    const leaseFx = h.connect('tab');
    const lease = ofType(leaseFx, 'openUpstream')[0]?.leaseId as string;
    h.hostReady(lease);
    const crashed = crash(h, lease);
    expect(browserCloses(crashed)).toEqual([{ attachmentId: 'tab', code: 4006 }]);
    expect(statusFrames(crashed, 'tab')).toEqual([{ status: 'server_exited', language: 'go', stderrTail: 'panic: boom' }]);
  });

  it('a restarted server that fails its initialize ends the lease with 4006', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    crash(h, lease);
    h.advance(1_000);
    const [initialize] = toServer(h.hostReady(lease), lease);
    const failed = h.fromServer(lease, { jsonrpc: '2.0', id: (initialize as JsonRpcMessage).id as number, error: { code: -32603, message: 'no' } });
    expect(browserCloses(failed)).toEqual([{ attachmentId: 'tab', code: 4006 }]);
    expect(h.broker.lease(lease)).toBeUndefined();
  });

  it('Stop during the backoff is released at once: no process exists to shut down', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    crash(h, lease);
    const stop = h.control('tab', { control: 'release', reason: 'stop' });
    expect(toBrowser(stop, 'tab')).toEqual([{ status: 'released', reason: 'stop' }]);
    expect(browserCloses(stop)).toEqual([{ attachmentId: 'tab', code: 1000 }]);
    expect(ofType(stop, 'openUpstream')).toEqual([]);
    expect(h.broker.lease(lease)).toBeUndefined();
    expect(h.armedTimers().size).toBe(0);
  });
});

describe('a server agentctl ended because it stopped reading its stdin (the stdin cutoff)', () => {
  function hung(h: BrokerHarness, lease: string) {
    h.hostStatus(lease, { status: 'server_exited', language: 'go', cause: 'stdin_timeout' });
    return h.upstreamClosed(lease, 4006);
  }

  it('is restarted like a crash, with its own reason: cause on the restarting frame, server_stdin_timeout in the log; a later crash has none', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const first = hung(h, lease);
    expect(statusFrames(first, 'tab')).toEqual([{ status: 'restarting', language: 'go', attempt: 1, of: 5, cause: 'stdin_timeout' }]);
    expect(logs(first)).toEqual(['restart/server_stdin_timeout']);
    restartCompletes(h, lease, 1_000);
    expect(statusFrames(crash(h, lease, 'panic'), 'tab')).toEqual([{ status: 'restarting', language: 'go', attempt: 2, of: 5, stderrTail: 'panic' }]);
  });

  it('past the budget the lease ends with 4006 and reason server_stdin_timeout', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    [1_000, 2_000, 4_000, 8_000, 16_000].forEach((backoff) => {
      hung(h, lease);
      restartCompletes(h, lease, backoff);
    });
    const last = hung(h, lease);
    expect(statusFrames(last, 'tab')).toEqual([{ status: 'server_exited', language: 'go', cause: 'stdin_timeout' }]);
    expect(browserCloses(last)).toEqual([{ attachmentId: 'tab', code: 4006 }]);
    expect(h.broker.metrics().releasedTotal.server_stdin_timeout).toBe(1);
  });
});
