import { describe, expect, it } from 'vitest';
import { DETACHED_DEADLINE_MS } from './deadlines.js';
import { HOLDER_PROBE_MS } from './holderProbe.js';
import {
  BrokerHarness,
  browserCloses,
  diagnostics,
  didChange,
  didOpen,
  INIT_RESULT,
  logs,
  methods,
  notif,
  ofType,
  openedLease,
  req,
  res,
  settingsWith,
  statusFrames,
  toBrowser,
  toServer,
} from './testkit.js';
import type { JsonRpcMessage } from './types.js';

const A = 'file:///workspace/repoA/main.go';
const MIN = 60_000;

function serverMethods(messages: JsonRpcMessage[]): string[] {
  return messages.map((m) => (typeof m.method === 'string' ? m.method : 'response'));
}

describe('continuity: detach and reattach', () => {
  it('C01 tab close detaches, keeps draining the task-host stream and does not interrupt the server', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1');
    h.fromBrowser('tab1', didOpen(A, 1));
    const fx = h.closeBrowser('tab1');
    expect(logs(fx)).toEqual(['detach/browser_closed']);
    expect(ofType(fx, 'closeUpstream')).toEqual([]);
    expect(ofType(fx, 'releaseSlot')).toEqual([]);
    expect(serverMethods(toServer(fx))).toEqual(['textDocument/didClose']);
    expect(ofType(fx, 'armTimer')).toEqual([{ type: 'armTimer', timerId: expect.stringMatching(/^deadline:/), atMs: h.now + DETACHED_DEADLINE_MS }]);

    // The server keeps working: its output is consumed with nothing sent anywhere and nothing closed.
    const drained = [
      ...h.fromServer(lease, notif('$/progress', { token: 't', value: { kind: 'begin', title: 'Loading packages' } })),
      ...h.fromServer(lease, notif('window/logMessage', { type: 3, message: 'x' })),
      ...h.fromServer(lease, diagnostics(A, 1)),
    ];
    expect(drained).toEqual([]);
    // ...and its requests are answered by the broker instead of waiting for a browser.
    const answered = h.fromServer(lease, req(42, 'workspace/configuration', { items: [{ section: 'gopls' }] }));
    expect(toServer(answered, lease)).toEqual([{ jsonrpc: '2.0', id: 42, result: [null] }]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running', detachedAt: h.now, initialize: 'answered' });
    expect(h.broker.metrics()).toMatchObject({ leases: 1, active: 0, detached: 1 });
  });

  it('C01 a browser that cannot take a write in time is detached and never blocks the upstream', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('slow');
    const fx = h.handle({ type: 'browserWriteTimedOut', attachmentId: 'slow' });
    expect(browserCloses(fx)).toEqual([{ attachmentId: 'slow', code: 4009 }]);
    expect(logs(fx)).toEqual(['detach/write_timeout']);
    expect(ofType(fx, 'closeUpstream')).toEqual([]);
    // Everything after is drained without a single write addressed to the stuck socket.
    const after = [
      ...h.fromServer(lease, notif('window/logMessage', { type: 3, message: 'x' })),
      ...h.fromServer(lease, req(1, 'window/workDoneProgress/create', { token: 'a' })),
    ];
    expect(toBrowser(after)).toEqual([]);
    expect(toServer(after)).toEqual([{ jsonrpc: '2.0', id: 1, result: null }]);
    // A late close of that socket changes nothing.
    expect(h.closeBrowser('slow')).toEqual([]);
  });

  it('C02 reattach reuses the lease, rebuilds from retained result, registrations and progress, and shows only a qualifying new publication', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1');
    // while attached: a dynamic registration through the browser, progress, an open document
    const reg = { id: 'r1', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**/*.go' }] } };
    const fwd = toBrowser(h.fromServer(lease, req('srv-1', 'client/registerCapability', { registrations: [reg] })), 'tab1')[0] as JsonRpcMessage;
    expect(fwd).toMatchObject({ method: 'client/registerCapability', params: { registrations: [reg] } });
    expect(toServer(h.fromBrowser('tab1', res(fwd.id as number, null)), lease)).toEqual([{ jsonrpc: '2.0', id: 'srv-1', result: null }]);
    h.fromServer(lease, notif('$/progress', { token: 'idx', value: { kind: 'begin', title: 'Indexing', percentage: 10 } }));
    const progressStarted = h.now;
    h.fromBrowser('tab1', didOpen(A, 1)); // server version 1
    h.closeBrowser('tab1');
    h.now += 5 * MIN;

    const fx = h.connect('tab1-again', { hint: lease });
    expect(ofType(fx, 'openUpstream')).toEqual([]);
    expect(logs(fx)).toEqual(['reattach/lease_hint']);
    expect(toBrowser(fx, 'tab1-again')).toEqual([
      {
        status: 'ready',
        lease,
        resumed: true,
        language: 'go',
        workspaceUri: 'file:///workspace',
        workspacePath: '/workspace',
        repoSubpaths: ['repoA'],
        initializeResult: INIT_RESULT,
        registrations: [reg],
        progress: { active: [{ token: 'idx', title: 'Indexing', percentage: 10, startedAt: progressStarted }] },
      },
    ]);
    // the deadline armed at detach is cancelled
    expect(ofType(fx, 'cancelTimer').map((c) => c.timerId)).toEqual([expect.stringMatching(/^deadline:/)]);

    // the browser reopens its current document: a fresh server-facing version, no initialize
    const reopened = toServer(h.fromBrowser('tab1-again', didOpen(A, 1, 'package main')), lease);
    expect(reopened).toEqual([
      { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: A, languageId: 'go', version: 2, text: 'package main' } } },
    ]);
    // an old publication (version 1, before detach) is not shown; the new one waits for synchronized
    expect(toBrowser(h.fromServer(lease, diagnostics(A, 1, 'old')))).toEqual([]);
    expect(toBrowser(h.fromServer(lease, diagnostics(A, 2, 'new')))).toEqual([]);
    const sync = h.control('tab1-again', { control: 'attachment-ready' });
    expect(methods(toBrowser(sync, 'tab1-again'))).toEqual(['status:synchronized', 'textDocument/publishDiagnostics']);
    expect(toBrowser(sync, 'tab1-again')[1]).toMatchObject({ params: { uri: A, version: 1, diagnostics: [{ message: 'new' }] } });
    expect(serverMethods(toServer(h.all, lease)).filter((m) => m === 'initialize')).toHaveLength(1);
    expect(h.broker.metrics()).toMatchObject({ createdTotal: 1, reattachedTotal: 1, active: 1, detached: 0 });
  });

  it('C03 diagnostics of an unsaved buffer stay hidden after reattaching with the persisted contents', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1');
    h.fromBrowser('tab1', didOpen(A, 1, 'saved')); // server v1
    h.fromBrowser('tab1', didChange(A, 2, 'unsaved edit')); // server v2
    expect(toBrowser(h.fromServer(lease, diagnostics(A, 2, 'unsaved-error')), 'tab1')).toHaveLength(1);
    h.closeBrowser('tab1');
    // a publication about the unsaved buffer arriving while detached is not kept for later
    expect(h.fromServer(lease, diagnostics(A, 2, 'unsaved-error'))).toEqual([]);

    h.connect('tab2', { hint: lease });
    h.fromBrowser('tab2', didOpen(A, 1, 'saved')); // persisted contents: server v3
    // the server's late answer about v2 (the unsaved buffer) never reaches the new browser
    expect(h.fromServer(lease, diagnostics(A, 2, 'unsaved-error'))).toEqual([]);
    const sync = h.control('tab2', { control: 'attachment-ready' });
    expect(methods(toBrowser(sync, 'tab2'))).toEqual(['status:synchronized']);
    expect(toBrowser(h.fromServer(lease, diagnostics(A, 2, 'unsaved-error')), 'tab2')).toEqual([]);
    // only the analysis of the reopened contents (v3) is shown, in the browser's numbering
    expect(toBrowser(h.fromServer(lease, diagnostics(A, 3, 'fresh')), 'tab2')).toEqual([
      {
        jsonrpc: '2.0',
        method: 'textDocument/publishDiagnostics',
        params: { uri: A, version: 1, diagnostics: [expect.objectContaining({ message: 'fresh' })] },
      },
    ]);
  });

  it('C03 unversioned publications (typescript-language-server) before the reopen are never replayed', () => {
    const h = new BrokerHarness();
    const T = 'file:///workspace/repoA/a.ts';
    const lease = h.readyLease('tab1', { language: 'typescript' });
    h.fromBrowser('tab1', didOpen(T, 1));
    h.fromBrowser('tab1', didChange(T, 2, 'unsaved'));
    h.closeBrowser('tab1');
    expect(h.fromServer(lease, diagnostics(T, undefined, 'unsaved-error'))).toEqual([]);
    h.connect('tab2', { hint: lease, language: 'typescript' });
    // before the reopen: not open in this generation, dropped
    expect(h.fromServer(lease, diagnostics(T, undefined, 'unsaved-error'))).toEqual([]);
    h.fromBrowser('tab2', didOpen(T, 1));
    expect(h.fromServer(lease, diagnostics(T, undefined, 'after-reopen'))).toEqual([]); // held
    const sync = toBrowser(h.control('tab2', { control: 'attachment-ready' }), 'tab2');
    expect(sync).toEqual([
      { status: 'synchronized' },
      { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: T, diagnostics: [expect.objectContaining({ message: 'after-reopen' })] } },
    ]);
  });

  it('C04 two windows with independent leases: one closing or stopping leaves the other untouched', () => {
    const h = new BrokerHarness();
    const l1 = h.readyLease('w1');
    const l2 = h.readyLease('w2');
    expect(l1).not.toBe(l2);
    h.fromBrowser('w2', didOpen(A, 1));
    h.fromServer(l2, notif('$/progress', { token: 'p', value: { kind: 'begin', title: 'Indexing' } }));
    const touchesW2 = (fx: ReturnType<BrokerHarness['handle']>) =>
      fx.filter((e) => ('attachmentId' in e && e.attachmentId === 'w2') || ('leaseId' in e && e.leaseId === l2));

    expect(touchesW2(h.closeBrowser('w1'))).toEqual([]);
    h.connect('w1b', { hint: l1 });
    expect(touchesW2(h.control('w1b', { control: 'release', reason: 'stop' }))).toEqual([]);
    expect(touchesW2(h.upstreamClosed(l1, 1000))).toEqual([]);

    // w2 keeps its process, requests, progress and diagnostics
    const hover = h.fromBrowser('w2', req(5, 'textDocument/hover', { textDocument: { uri: A }, position: { line: 0, character: 0 } }));
    const sent = toServer(hover, l2)[0] as JsonRpcMessage;
    expect(toBrowser(h.fromServer(l2, res(sent.id as number, { contents: 'x' })), 'w2')).toEqual([{ jsonrpc: '2.0', id: 5, result: { contents: 'x' } }]);
    expect(toBrowser(h.fromServer(l2, diagnostics(A, 1)), 'w2')).toHaveLength(1);
    expect(h.broker.lease(l2)).toMatchObject({ phase: 'running', attachmentId: 'w2' });
    expect(h.broker.lease(l1)).toBeUndefined();
  });

  it('C07 one hour detached releases the lease; reattaching before cancels the deadline; a stale deadline cannot close a reattached lease', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1');
    const firstDeadline = ofType(h.closeBrowser('tab1'), 'armTimer')[0]!.timerId;
    expect(h.advance(59 * MIN)).toEqual([]);
    h.connect('tab2', { hint: lease });
    expect(h.armedTimers().has(firstDeadline)).toBe(false);
    // the wiring lost the cancel: the old deadline fires anyway, and changes nothing
    expect(h.handle({ type: 'timerFired', timerId: firstDeadline })).toEqual([]);
    expect(h.advance(2 * 60 * MIN)).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ phase: 'running', attachmentId: 'tab2' });

    // detached again: the old timer id stays stale even while a newer deadline is armed
    h.closeBrowser('tab2');
    expect(h.handle({ type: 'timerFired', timerId: firstDeadline })).toEqual([]);
    expect(h.advance(DETACHED_DEADLINE_MS - 1)).toEqual([]);
    const expiry = h.advance(1);
    expect(logs(expiry)).toEqual(['expiry/detached_deadline']);
    expect(ofType(expiry, 'releaseSlot')).toEqual([{ type: 'releaseSlot', leaseId: lease }]);
    expect(serverMethods(toServer(expiry, lease))).toEqual(['shutdown']);
    expect(h.broker.metrics()).toMatchObject({ leases: 0, releasing: 1 });
    const shutdownId = (toServer(expiry, lease)[0] as JsonRpcMessage).id as number;
    const exit = h.fromServer(lease, res(shutdownId, null));
    expect(serverMethods(toServer(exit, lease))).toEqual(['exit']);
    expect(ofType(exit, 'releaseUpstream')).toEqual([{ type: 'releaseUpstream', leaseId: lease }]);
    expect(logs(h.hostStatus(lease, { status: 'reaped', clean: true }))).toEqual(['exit/reaped']);
    expect(h.broker.lease(lease)).toBeUndefined();
    expect(h.broker.metrics().releasedTotal.expiry).toBe(1);

    // a later editor open (even with the old hint) starts fresh analysis on a new lease
    const fresh = h.connect('tab3', { hint: lease });
    expect(openedLease(fresh)).not.toBe(lease);
    expect(h.armedTimers().size).toBe(0);
  });

  it('C10 a duplicated tab with a copied hint gets its own lease and never steals the attached one', () => {
    const h = new BrokerHarness();
    const original = h.readyLease('orig');
    // The holder is asked first; the duplicate is admitted once it answered.
    const asked = h.connect('dup', { hint: original });
    expect(ofType(asked, 'probeBrowser')).toEqual([{ type: 'probeBrowser', attachmentId: 'orig', newcomer: 'dup', timeoutMs: HOLDER_PROBE_MS }]);
    expect(ofType(asked, 'openUpstream')).toEqual([]);
    const dup = h.holderAnswered('dup');
    const dupLease = openedLease(dup);
    expect(dupLease).not.toBe(original);
    expect(dup.filter((e) => 'attachmentId' in e && e.attachmentId === 'orig')).toEqual([]);
    expect(h.broker.lease(original)).toMatchObject({ attachmentId: 'orig' });
    expect(h.broker.lease(dupLease)).toMatchObject({ attachmentId: 'dup' });
  });

  it('C10 when capacity is taken by attached leases the duplicate gets 4005 and the original stays attached', () => {
    const h = new BrokerHarness({ maxLeases: 1 });
    const original = h.readyLease('orig');
    h.connect('dup', { hint: original });
    const dup = h.holderAnswered('dup');
    expect(dup).toEqual([
      { type: 'cancelTimer', timerId: 'holderProbe:dup' },
      { type: 'closeBrowser', attachmentId: 'dup', code: 4005 },
    ]);
    expect(h.broker.lease(original)).toMatchObject({ attachmentId: 'orig', phase: 'running' });
  });

  it('C05 a holder that never answers is dropped at the probe deadline and the newcomer resumes its lease', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const asked = h.connect('tab-back', { hint: lease });
    expect(ofType(asked, 'probeBrowser')).toHaveLength(1);
    expect(ofType(asked, 'armTimer')).toEqual([{ type: 'armTimer', timerId: 'holderProbe:tab-back', atMs: h.now + HOLDER_PROBE_MS }]);
    expect(h.advance(HOLDER_PROBE_MS - 1)).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ attachmentId: 'tab' });
    const fx = h.advance(1);
    expect(ofType(fx, 'terminateBrowser')).toEqual([{ type: 'terminateBrowser', attachmentId: 'tab' }]);
    expect(logs(fx)).toEqual(['detach/browser_closed', 'reattach/lease_hint']);
    expect(statusFrames(fx, 'tab-back')).toEqual([expect.objectContaining({ status: 'ready', resumed: true, lease })]);
    expect(ofType(fx, 'openUpstream')).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ attachmentId: 'tab-back' });
    // The dropped socket's close, or a pong that comes too late, changes nothing.
    expect(h.closeBrowser('tab')).toEqual([]);
    expect(h.holderAnswered('tab-back')).toEqual([]);
    expect([...h.armedTimers().keys()].filter((id) => id.startsWith('holderProbe'))).toEqual([]);
  });

  it('C05 a holder whose socket gives up on the ping before the deadline is dropped at once', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.connect('tab-back', { hint: lease });
    const fx = h.holderSilent('tab-back');
    expect(fx[0]).toEqual({ type: 'cancelTimer', timerId: 'holderProbe:tab-back' });
    expect(ofType(fx, 'terminateBrowser')).toEqual([{ type: 'terminateBrowser', attachmentId: 'tab' }]);
    expect(statusFrames(fx, 'tab-back')).toEqual([expect.objectContaining({ status: 'ready', resumed: true, lease })]);
    expect(h.advance(HOLDER_PROBE_MS)).toEqual([]);
  });

  it('C10 a holder that answers before the deadline keeps its lease; the deadline passing later changes nothing', () => {
    const h = new BrokerHarness();
    const original = h.readyLease('orig');
    h.connect('dup', { hint: original });
    h.advance(HOLDER_PROBE_MS - 1);
    const fx = h.holderAnswered('dup');
    expect(ofType(fx, 'terminateBrowser')).toEqual([]);
    expect(openedLease(fx)).not.toBe(original);
    expect(h.advance(HOLDER_PROBE_MS)).toEqual([]);
    expect(h.broker.lease(original)).toMatchObject({ attachmentId: 'orig' });
  });

  it('a newcomer that leaves while its holder is asked starts nothing; a detached hint needs no probe', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.connect('gone', { hint: lease });
    expect(h.closeBrowser('gone')).toEqual([{ type: 'cancelTimer', timerId: 'holderProbe:gone' }]);
    expect(h.holderSilent('gone')).toEqual([]);
    expect(h.advance(HOLDER_PROBE_MS)).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ attachmentId: 'tab' });
    h.closeBrowser('tab');
    const back = h.connect('back', { hint: lease });
    expect(ofType(back, 'probeBrowser')).toEqual([]);
    expect(logs(back)).toEqual(['reattach/lease_hint']);
  });

  it('C11 registrations changed while detached are restored on reattach without a second initialize', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1');
    const r1 = { id: 'r1', method: 'textDocument/semanticTokens', registerOptions: {} };
    const r2 = { id: 'r2', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [] } };
    const fwd = toBrowser(h.fromServer(lease, req(1, 'client/registerCapability', { registrations: [r1] })), 'tab1')[0] as JsonRpcMessage;
    h.fromBrowser('tab1', res(fwd.id as number, null));
    h.closeBrowser('tab1');
    // while detached the broker answers the server itself and tracks the effective set
    expect(toServer(h.fromServer(lease, req(2, 'client/registerCapability', { registrations: [r2] })), lease)).toEqual([
      { jsonrpc: '2.0', id: 2, result: null },
    ]);
    expect(toServer(h.fromServer(lease, req(3, 'client/unregisterCapability', { unregisterations: [{ id: 'r1', method: r1.method }] })), lease)).toEqual([
      { jsonrpc: '2.0', id: 3, result: null },
    ]);
    const ready = statusFrames(h.connect('tab2', { hint: lease }), 'tab2')[0];
    expect(ready).toMatchObject({ status: 'ready', resumed: true, registrations: [r2], initializeResult: INIT_RESULT });
    // the browser must not initialize again; if it does, the retained result answers it locally
    const again = h.fromBrowser('tab2', req('i2', 'initialize', { capabilities: {} }));
    expect(toServer(again)).toEqual([]);
    expect(toBrowser(again, 'tab2')).toEqual([{ jsonrpc: '2.0', id: 'i2', result: INIT_RESULT }]);
    expect(toServer(h.fromBrowser('tab2', notif('initialized', {})))).toEqual([]);
    expect(serverMethods(toServer(h.all, lease)).filter((m) => m === 'initialize' || m === 'initialized')).toEqual(['initialize', 'initialized']);
  });

  it('C12 settings changed while detached reach the retained server, and later configuration answers use them', () => {
    const h = new BrokerHarness();
    const before = settingsWith({ go: { gopls: { staticcheck: false } } });
    const goLease = h.readyLease('tab1', { settings: before });
    const pyLease = h.readyLease('tab2', { settings: before, language: 'python' });
    const otherUser = h.readyLease('tab3', { settings: before, user: 'u2' });
    h.closeBrowser('tab1');
    const after = settingsWith({ go: { gopls: { staticcheck: true } } });
    const fx = h.handle({ type: 'settingsChanged', userId: 'u1', settings: after });
    expect(toServer(fx)).toEqual([{ jsonrpc: '2.0', method: 'workspace/didChangeConfiguration', params: { settings: { gopls: { staticcheck: true } } } }]);
    expect(ofType(fx, 'sendToUpstream')[0]!.leaseId).toBe(goLease);
    expect(toServer(fx, pyLease)).toEqual([]);
    expect(toServer(fx, otherUser)).toEqual([]);
    expect(ofType(fx, 'openUpstream')).toEqual([]);
    expect(h.broker.settingsRevision('u1')).toBe(2);
    const answer = h.fromServer(goLease, req(9, 'workspace/configuration', { items: [{ section: 'gopls' }] }));
    expect(toServer(answer, goLease)).toEqual([{ jsonrpc: '2.0', id: 9, result: [{ staticcheck: true }] }]);
    // saving the same settings again is not a change
    expect(h.handle({ type: 'settingsChanged', userId: 'u1', settings: after })).toEqual([]);
  });

  it('S23 a live attached server gets didChangeConfiguration and new configuration answers without a second server', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab1', { settings: settingsWith({ go: { gopls: { a: 1 } } }) });
    const fx = h.handle({ type: 'settingsChanged', userId: 'u1', settings: settingsWith({ go: { gopls: { a: 2 } } }) });
    expect(serverMethods(toServer(fx, lease))).toEqual(['workspace/didChangeConfiguration']);
    expect(ofType(fx, 'openUpstream')).toEqual([]);
    const answer = h.fromServer(lease, req(3, 'workspace/configuration', { items: [{ section: 'gopls.a' }] }));
    expect(toServer(answer, lease)).toEqual([{ jsonrpc: '2.0', id: 3, result: [2] }]);
  });

  it('S33 callbacks from a replaced generation cannot close, initialize or clean up the new one', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('old');
    h.handle({ type: 'browserWriteTimedOut', attachmentId: 'old' });
    h.connect('new', { hint: lease });
    h.fromBrowser('new', didOpen(A, 1));
    // late frames and a late close from the old socket
    expect(h.fromBrowser('old', req('x', 'initialize', {}))).toEqual([]);
    expect(h.fromBrowser('old', req(1, 'textDocument/hover', {}))).toEqual([]);
    expect(h.fromBrowser('old', notif('textDocument/didClose', { textDocument: { uri: A } }))).toEqual([]);
    expect(h.control('old', { control: 'release', reason: 'stop' })).toEqual([]);
    expect(h.closeBrowser('old')).toEqual([]);
    expect(h.handle({ type: 'browserWriteTimedOut', attachmentId: 'old' })).toEqual([]);
    expect(h.broker.lease(lease)).toMatchObject({ attachmentId: 'new', phase: 'running', generation: 2 });
    expect(toBrowser(h.fromServer(lease, diagnostics(A, 1)), 'new')).toEqual([]); // held until synchronized, not dropped by cleanup
    expect(methods(toBrowser(h.control('new', { control: 'attachment-ready' }), 'new'))).toEqual(['status:synchronized', 'textDocument/publishDiagnostics']);
  });

  it('without a hint the most recently detached lease of the same session, language and user is claimed', () => {
    const h = new BrokerHarness();
    const l1 = h.readyLease('a');
    const l2 = h.readyLease('b');
    h.closeBrowser('a');
    h.now += 1000;
    h.closeBrowser('b');
    const fx = h.connect('c');
    expect(logs(fx)).toEqual(['reattach/recent_detached']);
    expect(h.broker.leaseOf('c')).toBe(l2);
    expect(h.broker.lease(l1)).toMatchObject({ detachedAt: expect.any(Number) });
    // a different user or session never claims it
    expect(openedLease(h.connect('d', { user: 'u2' }))).not.toBe(l1);
    expect(openedLease(h.connect('e', { session: 's2' }))).not.toBe(l1);
  });
});
