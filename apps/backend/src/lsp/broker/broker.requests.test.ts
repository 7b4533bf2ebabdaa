import { describe, expect, it } from 'vitest';
import { MAX_PENDING_BROWSER_REQUESTS } from '@kandev/protocol';
import { BrokerHarness, notif, ofType, openedLease, req, res, settingsWith, toBrowser, toServer } from './testkit.js';
import type { JsonRpcMessage } from './types.js';

const HOVER = { textDocument: { uri: 'file:///workspace/repoA/main.go' }, position: { line: 1, character: 2 } };

function forwardedId(effects: ReturnType<BrokerHarness['handle']>): number {
  const sent = toServer(effects)[0];
  if (!sent || typeof sent.id !== 'number') throw new Error(`nothing forwarded: ${JSON.stringify(effects)}`);
  return sent.id;
}

describe('request mapping, cancellation and bounds', () => {
  it('browser ids are replaced by server-facing ids and mapped back on the reply', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fx = h.fromBrowser('tab', req('b-1', 'textDocument/hover', HOVER));
    const sent = toServer(fx, lease)[0] as JsonRpcMessage;
    expect(sent).toEqual({ jsonrpc: '2.0', id: expect.any(Number), method: 'textDocument/hover', params: HOVER });
    expect(toBrowser(h.fromServer(lease, res(sent.id as number, { contents: 'doc' })), 'tab')).toEqual([
      { jsonrpc: '2.0', id: 'b-1', result: { contents: 'doc' } },
    ]);
    expect(h.broker.lease(lease)).toMatchObject({ pendingRequests: 0, trackedRequestBytes: 0 });
    // its 30 s timer was cancelled with it
    expect([...h.armedTimers().keys()].filter((id) => id.startsWith('request:'))).toEqual([]);
  });

  it('C13 a request pending at detach is cancelled on the server and its late reply ignored, even when the next generation reuses the browser id', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1');
    const oldId = forwardedId(h.fromBrowser('tab1', req(5, 'textDocument/references', HOVER)));
    const detach = h.closeBrowser('tab1');
    expect(toServer(detach, lease)).toContainEqual({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: oldId } });
    h.connect('tab2', { hint: lease });
    const newId = forwardedId(h.fromBrowser('tab2', req(5, 'textDocument/references', HOVER)));
    expect(newId).not.toBe(oldId);
    // the late reply for the ended generation reaches nobody
    expect(h.fromServer(lease, { jsonrpc: '2.0', id: oldId, error: { code: -32800, message: 'cancelled' } })).toEqual([]);
    expect(toBrowser(h.fromServer(lease, res(newId, [])), 'tab2')).toEqual([{ jsonrpc: '2.0', id: 5, result: [] }]);
  });

  it('C13 a request pending at explicit Stop is rejected to the browser and its late reply ignored', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const serverId = forwardedId(h.fromBrowser('tab', req(9, 'textDocument/definition', HOVER)));
    const stop = h.control('tab', { control: 'release', reason: 'stop' });
    expect(toBrowser(stop, 'tab')).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32800, message: expect.any(String) } }]);
    expect(h.fromServer(lease, res(serverId, []))).toEqual([]);
  });

  it('C13 a browser $/cancelRequest is translated to the mapped server id; unknown ids are not forwarded', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const serverId = forwardedId(h.fromBrowser('tab', req('c-1', 'textDocument/completion', HOVER)));
    expect(toServer(h.fromBrowser('tab', notif('$/cancelRequest', { id: 'c-1' })), lease)).toEqual([
      { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: serverId } },
    ]);
    expect(toServer(h.fromBrowser('tab', notif('$/cancelRequest', { id: 'never-sent' })))).toEqual([]);
    // the server's cancellation error still reaches the browser under its own id
    const reply = h.fromServer(lease, { jsonrpc: '2.0', id: serverId, error: { code: -32800, message: 'Request cancelled' } });
    expect(toBrowser(reply, 'tab')).toEqual([{ jsonrpc: '2.0', id: 'c-1', error: { code: -32800, message: 'Request cancelled' } }]);
  });

  it('bounds: a request unanswered for 30 s is cancelled on the server and answered with an error', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const serverId = forwardedId(h.fromBrowser('tab', req(3, 'workspace/symbol', { query: 'x' })));
    expect(h.advance(29_999)).toEqual([]);
    const fx = h.advance(1);
    expect(toServer(fx, lease)).toEqual([{ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: serverId } }]);
    // `data` names the deadline, so the page can tell it from a server that dropped the work itself.
    expect(toBrowser(fx, 'tab')).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32800, message: 'the language server did not answer within 30 s', data: { requestDeadlineMs: 30_000 } } },
    ]);
    expect(h.fromServer(lease, res(serverId, []))).toEqual([]);
  });

  it('bounds: a configured request deadline is the one armed, and the one the error names', () => {
    const h = new BrokerHarness({ requestTimeoutMs: 1_500 });
    h.readyLease('tab');
    forwardedId(h.fromBrowser('tab', req(4, 'textDocument/completion', HOVER)));
    expect(h.advance(1_499)).toEqual([]);
    expect(toBrowser(h.advance(1), 'tab')).toEqual([
      { jsonrpc: '2.0', id: 4, error: { code: -32800, message: 'the language server did not answer within 1.5 s', data: { requestDeadlineMs: 1_500 } } },
    ]);
  });

  it('bounds: the 257th pending request is refused without reaching the server', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    for (let i = 0; i < MAX_PENDING_BROWSER_REQUESTS; i++) expect(toServer(h.fromBrowser('tab', req(i, 'textDocument/hover', HOVER)))).toHaveLength(1);
    const refused = h.fromBrowser('tab', req(256, 'textDocument/hover', HOVER));
    expect(toServer(refused)).toEqual([]);
    expect(toBrowser(refused, 'tab')).toEqual([{ jsonrpc: '2.0', id: 256, error: { code: -32803, message: 'too many pending requests' } }]);
    expect(h.broker.lease(lease)?.pendingRequests).toBe(MAX_PENDING_BROWSER_REQUESTS);
  });

  it('bounds: a request id over 256 bytes is refused (answered with id null), one of 256 bytes passes', () => {
    const h = new BrokerHarness();
    h.readyLease('tab');
    expect(toServer(h.fromBrowser('tab', req('x'.repeat(256), 'textDocument/hover', HOVER)))).toHaveLength(1);
    const refused = h.fromBrowser('tab', req('x'.repeat(257), 'textDocument/hover', HOVER));
    expect(toServer(refused)).toEqual([]);
    expect(toBrowser(refused, 'tab')).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.any(String) } }]);
  });

  it('bounds: tracked request state stays within 64 KiB', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const method = `custom/${'m'.repeat(300)}`;
    let refused = 0;
    for (let i = 0; i < MAX_PENDING_BROWSER_REQUESTS; i++) {
      const fx = h.fromBrowser('tab', req(`${'i'.repeat(200)}-${i}`, method, {}));
      if (toServer(fx).length === 0) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    expect(h.broker.lease(lease)!.trackedRequestBytes).toBeLessThanOrEqual(64 * 1024);
  });

  it('requests before initialize or before the process launched are answered with ServerNotInitialized', () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab'));
    expect(toBrowser(h.fromBrowser('tab', req(1, 'textDocument/hover', HOVER)), 'tab')).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32002, message: expect.any(String) } },
    ]);
    h.hostReady(lease);
    expect(toBrowser(h.fromBrowser('tab', req(2, 'textDocument/hover', HOVER)), 'tab')).toMatchObject([{ id: 2, error: { code: -32002 } }]);
    expect(toServer(h.all)).toEqual([]);
  });

  it('a browser shutdown/exit never reaches the server: the lifecycle belongs to the release control frame', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fx = [...h.fromBrowser('tab', req(99, 'shutdown')), ...h.fromBrowser('tab', notif('exit'))];
    expect(toServer(fx, lease)).toEqual([]);
    expect(toBrowser(fx, 'tab')).toEqual([{ jsonrpc: '2.0', id: 99, result: null }]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running', attachmentId: 'tab' });
  });

  it('a browser workspace/didChangeConfiguration is dropped: the broker owns settings', () => {
    const h = new BrokerHarness();
    h.readyLease('tab');
    expect(h.fromBrowser('tab', notif('workspace/didChangeConfiguration', { settings: {} }))).toEqual([]);
  });
});

describe('server requests', () => {
  it('an unsupported server request gets method-not-found (-32601) even with a browser attached', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fx = h.fromServer(lease, req(11, 'window/showMessage/unknown', {}));
    expect(toBrowser(fx)).toEqual([]);
    expect(toServer(fx, lease)).toEqual([{ jsonrpc: '2.0', id: 11, error: { code: -32601, message: 'Unhandled method window/showMessage/unknown' } }]);
  });

  it('workspace/configuration is answered by the broker from settings even with a browser attached', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab', { settings: settingsWith({ go: { gopls: { hints: { assignVariableTypes: true } } } }) });
    const fx = h.fromServer(lease, req(1, 'workspace/configuration', { items: [{ section: 'gopls' }, { section: 'gopls.hints' }] }));
    expect(toBrowser(fx)).toEqual([]);
    expect(toServer(fx, lease)).toEqual([{ jsonrpc: '2.0', id: 1, result: [{ hints: { assignVariableTypes: true } }, { assignVariableTypes: true }] }]);
  });

  it('a forwarded server request gets a browser-facing id, mapped back on the answer; the server may cancel it', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fwd = toBrowser(
      h.fromServer(lease, req('srv-9', 'window/showMessageRequest', { type: 2, message: 'Reload?', actions: [{ title: 'Yes' }] })),
      'tab',
    )[0] as JsonRpcMessage;
    expect(fwd).toMatchObject({ jsonrpc: '2.0', id: expect.any(Number), method: 'window/showMessageRequest' });
    expect(toBrowser(h.fromServer(lease, notif('$/cancelRequest', { id: 'srv-9' })), 'tab')).toEqual([
      { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: fwd.id } },
    ]);
    expect(toServer(h.fromBrowser('tab', res(fwd.id as number, { title: 'Yes' })), lease)).toEqual([{ jsonrpc: '2.0', id: 'srv-9', result: { title: 'Yes' } }]);
    // answering twice, or answering an id the broker never sent, reaches nothing
    expect(h.fromBrowser('tab', res(fwd.id as number, { title: 'Yes' }))).toEqual([]);
    expect(h.fromBrowser('tab', res(12345, null))).toEqual([]);
  });

  it('a forwarded server request still unanswered at detach is answered by the broker', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.fromServer(lease, req(4, 'workspace/semanticTokens/refresh'));
    const reg = { id: 'r', method: 'textDocument/hover', registerOptions: {} };
    h.fromServer(lease, req(5, 'client/registerCapability', { registrations: [reg] }));
    const fx = h.closeBrowser('tab');
    expect(toServer(fx, lease)).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 4, result: null },
        { jsonrpc: '2.0', id: 5, result: null },
      ]),
    );
    expect(h.broker.lease(lease)?.registrations).toEqual([reg]);
  });

  it('workspace/applyEdit reaches the attached browser; pending at detach or sent while detached it is answered applied:false', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const edit = { edit: { changes: { 'file:///w/a.ts': [] } } };
    const fwd = toBrowser(h.fromServer(lease, req('e1', 'workspace/applyEdit', edit)), 'tab')[0] as JsonRpcMessage;
    expect(fwd).toMatchObject({ method: 'workspace/applyEdit', params: edit });
    const refused = { applied: false, failureReason: 'no editor is attached to apply the edit' };
    expect(toServer(h.closeBrowser('tab'), lease)).toEqual(expect.arrayContaining([{ jsonrpc: '2.0', id: 'e1', result: refused }]));
    expect(toServer(h.fromServer(lease, req('e2', 'workspace/applyEdit', edit)), lease)).toEqual([{ jsonrpc: '2.0', id: 'e2', result: refused }]);
  });

  it('a registration the browser refuses is not retained', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const fwd = toBrowser(h.fromServer(lease, req(5, 'client/registerCapability', { registrations: [{ id: 'r', method: 'x' }] })), 'tab')[0] as JsonRpcMessage;
    const answer = h.fromBrowser('tab', { jsonrpc: '2.0', id: fwd.id as number, error: { code: -32603, message: 'no' } });
    expect(toServer(answer, lease)).toEqual([{ jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'no' } }]);
    expect(h.broker.lease(lease)?.registrations).toEqual([]);
  });

  it('window/workDoneProgress/create is answered by the broker and progress is tracked and forwarded', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const create = h.fromServer(lease, req(1, 'window/workDoneProgress/create', { token: 'w' }));
    expect(toServer(create, lease)).toEqual([{ jsonrpc: '2.0', id: 1, result: null }]);
    const begin = notif('$/progress', { token: 'w', value: { kind: 'begin', title: 'Indexing' } });
    expect(toBrowser(h.fromServer(lease, begin), 'tab')).toEqual([begin]);
    expect(ofType(h.all, 'closeBrowser')).toEqual([]);
  });
});

describe('malformed browser messages', () => {
  it('a request with an unusable id is answered with id null; a malformed response is not answered', () => {
    const h = new BrokerHarness();
    h.readyLease('tab');
    expect(toBrowser(h.fromBrowser('tab', { jsonrpc: '2.0', id: { bad: true }, method: 'textDocument/hover' } as never), 'tab')).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'malformed message' } },
    ]);
    expect(h.fromBrowser('tab', { jsonrpc: '2.0', id: 3 } as never)).toEqual([]);
    expect(toServer(h.all).filter((m) => m.method === 'textDocument/hover')).toEqual([]);
  });
});
