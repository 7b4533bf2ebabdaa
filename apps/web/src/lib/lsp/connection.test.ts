/* eslint-disable @typescript-eslint/no-explicit-any -- test fakes and assertions, as test/** allows */
import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_GRACE_MS } from '@kandev/protocol';
import { AccessWatch, type AccessCheck } from '../access/accessWatch.js';
import { CAPACITY_CLOSE_WAIT_MS, CAPACITY_RETRY_MS, DEFAULT_RECONNECT_DELAYS_MS, LspConnection } from './connection.js';
import type { FeatureBinding, FeatureContext } from './features.js';
import { LeaseHints, memoryStorage } from './leaseHint.js';
import { LspConnectionRegistry } from './registry.js';
import { FakeDocuments, FakeSocket, settle } from './testing/fakes.js';

const READY = { status: 'ready', lease: 'L1', resumed: false, workspaceUri: 'file:///ws', workspacePath: '/ws', repoSubpaths: [], language: 'typescript' };

function harness(options: { reconnectDelaysMs?: number[]; freeCapacity?: () => Promise<void> | undefined; access?: AccessWatch } = {}) {
  const sockets: FakeSocket[] = [];
  const storage = memoryStorage();
  const timers = new ManualClock(0);
  const documents = new FakeDocuments();
  const bindings: Array<{ context: FeatureContext; disposed: boolean; diagnostics: unknown[] }> = [];
  const identities: unknown[] = [];
  const create = () =>
    new LspConnection({
      sessionId: 's1',
      language: 'typescript',
      openSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      socketUrl: (sid, lang, hint) => `/lsp/${sid}?language=${lang}${hint ? `&lease=${hint}` : ''}`,
      leaseHints: new LeaseHints(storage),
      documents,
      bindFeatures: (context): FeatureBinding => {
        const entry = { context, disposed: false, diagnostics: [] as unknown[] };
        bindings.push(entry);
        return {
          publishDiagnostics: (p) => void entry.diagnostics.push(p),
          applyEdit: async () => ({ applied: false }),
          dispose: () => void (entry.disposed = true),
        };
      },
      onWorkspaceIdentity: (_sid, identity) => void identities.push(identity),
      clock: timers,
      reconnectDelaysMs: options.reconnectDelaysMs ?? [100, 200],
      idleReleaseMs: 120_000,
      stopTimeoutMs: 5_000,
      debounceMs: 50,
      ...(options.freeCapacity ? { freeCapacity: options.freeCapacity } : {}),
      ...(options.access ? { access: options.access } : {}),
    });
  return { sockets, storage, timers, documents, bindings, identities, create };
}

async function initialize(socket: FakeSocket, capabilities: Record<string, unknown> = { hoverProvider: true, textDocumentSync: 2 }) {
  socket.open();
  socket.receive(READY);
  const init = socket.lastRequest('initialize')!;
  socket.receive({ jsonrpc: '2.0', id: init.id, result: { capabilities } });
  await settle();
}

describe('LspConnection', () => {
  it("the ready status carries what the ready frame said about an untrusted server's network, and nothing for a trusted one", async () => {
    for (const [network, expected] of [
      ['unavailable', 'unavailable'],
      ['off', 'off'],
      [undefined, undefined],
      ['bogus', undefined],
    ] as const) {
      const h = harness();
      const c = h.create();
      c.start();
      const socket = h.sockets[0]!;
      socket.open();
      socket.receive({ ...READY, ...(network ? { network } : {}) });
      const init = socket.lastRequest('initialize')!;
      socket.receive({ jsonrpc: '2.0', id: init.id, result: { capabilities: {} } });
      await settle();
      expect(c.getStatus().state).toBe('ready');
      expect(c.getStatus().network).toBe(expected);
    }
  });

  it('a fresh lease: connecting -> starting (launched) -> initialize with honest capabilities -> initialized -> ready', async () => {
    const h = harness();
    h.documents.add('src/a.ts', 'let a = 1;');
    const c = h.create();
    c.start();
    expect(c.getStatus().state).toBe('connecting');
    expect(h.sockets[0]!.url).toBe('/lsp/s1?language=typescript');
    h.sockets[0]!.open();
    h.sockets[0]!.receive(READY);
    expect(c.getStatus()).toMatchObject({ state: 'starting', phase: 'awaitingInitialize', message: { key: 'message.launched' } });
    const init = h.sockets[0]!.lastRequest('initialize') as { id: number; params: any };
    expect(init.params.rootUri).toBe('file:///ws');
    expect(init.params.workspaceFolders).toEqual([{ uri: 'file:///ws', name: 'ws' }]);
    const caps = init.params.capabilities;
    expect(caps.window.workDoneProgress).toBe(true);
    expect(caps.textDocument.completion.completionItem).toMatchObject({ snippetSupport: true, insertReplaceSupport: true });
    expect(caps.textDocument.completion.contextSupport).toBe(true);
    expect(caps.textDocument.hover.contentFormat).toContain('markdown');
    expect(caps.textDocument.definition.linkSupport).toBe(true);
    expect(caps.textDocument.signatureHelp.contextSupport).toBe(true);
    expect(caps.textDocument.semanticTokens.requests).toEqual({ full: { delta: true }, range: true });
    expect(caps.textDocument.publishDiagnostics).toMatchObject({ versionSupport: true, relatedInformation: true });
    expect(caps.textDocument.synchronization.didSave).toBe(true);
    h.sockets[0]!.receive({ jsonrpc: '2.0', id: init.id, result: { capabilities: { hoverProvider: true, textDocumentSync: 2 } } });
    await settle();
    expect(c.getStatus().state).toBe('ready');
    expect(h.sockets[0]!.methods()).toEqual(['initialize', 'initialized', 'textDocument/didOpen']);
    expect(h.storage.dump()).toEqual({ 'kandev.lsp.lease.s1.typescript': 'L1' });
    expect(h.identities).toEqual([{ workspaceUri: 'file:///ws', workspacePath: '/ws', repoSubpaths: [] }]);
    expect(h.bindings).toHaveLength(1);
    expect(h.bindings[0]!.context.capabilities.has('hover')).toBe(true);
  });

  it('restarting: providers and markers of the dead process go, the status says restarting with its stderr; ready{resumed:true} on the same socket resumes', async () => {
    const h = harness();
    h.documents.add('src/a.ts', 'let a = 1;');
    const c = h.create();
    c.start();
    const s = h.sockets[0]!;
    await initialize(s);
    expect(h.bindings).toHaveLength(1);
    s.receive({ status: 'restarting', language: 'typescript', attempt: 2, of: 5, stderrTail: 'panic: boom' });
    expect(h.bindings[0]!.disposed).toBe(true);
    expect(c.getStatus()).toMatchObject({
      state: 'starting',
      phase: 'restarting',
      stderrTail: 'panic: boom',
      message: { key: 'faults:restarting', params: { language: 'typescript', attempt: 2, of: 5 } },
    });
    const before = s.methods().length;
    s.receive({ ...READY, resumed: true, initializeResult: { capabilities: { hoverProvider: true, textDocumentSync: 2 } }, registrations: [] });
    await settle();
    // No initialize (the broker did it); the document is reopened, then attachment-ready.
    expect(s.methods().slice(before)).toEqual(['textDocument/didOpen']);
    expect(s.controls()).toEqual([{ control: 'attachment-ready' }]);
    s.receive({ status: 'synchronized' });
    expect(c.getStatus()).toMatchObject({ state: 'ready' });
    expect(h.sockets).toHaveLength(1);
    expect(h.bindings).toHaveLength(2);
  });

  it('S31 past the restart budget the 4006 error carries the stderr tail of server_exited', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    const s = h.sockets[0]!;
    await initialize(s);
    s.receive({ status: 'server_exited', language: 'typescript', stderrTail: 'fatal: out of memory' });
    s.serverClose(4006);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'close.4006' }, stderrTail: 'fatal: out of memory' });
  });

  it('S29 an initialize rejected with a JSON-RPC error shows error.message and releases the process', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    const s = h.sockets[0]!;
    s.open();
    s.receive(READY);
    const init = s.lastRequest('initialize')!;
    s.receive({ jsonrpc: '2.0', id: init.id, error: { code: -32603, message: 'Request initialize failed: no tsconfig', data: { stack: 'at x' } } });
    await settle();
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { text: 'Request initialize failed: no tsconfig' } });
    expect(JSON.stringify(c.getStatus())).not.toContain('[object Object]');
    expect(s.controls()).toEqual([{ control: 'release', reason: 'stop' }]);
    expect(h.storage.dump()).toEqual({});
  });

  it('a ready frame with a non-string repo subpath is refused whole (a protocol error), not filtered', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ ...READY, repoSubpaths: ['api', 3] });
    await settle();
    expect(h.sockets[0]!.lastRequest('initialize')).toBeUndefined();
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'message.protocolError' } });
    expect(h.identities).toEqual([]);
  });

  it('resumed: no initialize; providers from the retained result and registrations, documents reopened, attachment-ready, ready on synchronized', async () => {
    const h = harness();
    h.storage.setItem('kandev.lsp.lease.s1.typescript', 'L0');
    h.documents.add('a.ts', 'x');
    const c = h.create();
    c.start();
    const s = h.sockets[0]!;
    expect(s.url).toBe('/lsp/s1?language=typescript&lease=L0');
    s.open();
    s.receive({
      ...READY,
      lease: 'L0',
      resumed: true,
      initializeResult: { capabilities: { textDocumentSync: 1 } },
      registrations: [{ id: 'r1', method: 'textDocument/hover', registerOptions: {} }],
      progress: { active: [{ token: 't', title: 'Indexing', startedAt: 5 }] },
    });
    expect(s.methods()).toEqual(['textDocument/didOpen']);
    expect(s.controls()).toEqual([{ control: 'attachment-ready' }]);
    expect(h.bindings[0]!.context.capabilities.has('hover')).toBe(true);
    expect(c.getStatus().state).toBe('starting');
    expect(c.progress().active.map((p) => p.title)).toEqual(['Indexing']);
    s.receive({ status: 'synchronized' });
    expect(c.getStatus().state).toBe('ready');
  });

  it('S33 callbacks of a replaced generation cannot close, initialize or clean up the replacement', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    const old = h.sockets[0]!;
    old.open();
    old.receive(READY); // old generation sent initialize and waits
    const oldInit = old.lastRequest('initialize')!;
    c.retry(); // replacement generation
    const fresh = h.sockets[1]!;
    expect(old.closedWith).toBe(1000);
    await initialize(fresh);
    expect(c.getStatus()).toMatchObject({ state: 'ready', generation: 2 });
    // Late arrivals on the old socket:
    old.receive({ jsonrpc: '2.0', id: oldInit.id, result: { capabilities: { hoverProvider: true } } });
    old.receive({ status: 'released', reason: 'stop' });
    old.receive({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///ws/a.ts', diagnostics: [] } });
    old.serverClose(4006);
    await settle();
    expect(c.getStatus()).toMatchObject({ state: 'ready', generation: 2 });
    expect(old.methods()).toEqual(['initialize']); // no initialized, no didOpen from the old generation
    expect(h.bindings).toHaveLength(1);
    expect(h.bindings[0]!.context.generation).toBe(2);
    expect(h.bindings[0]!.disposed).toBe(false);
    expect(h.storage.dump()).toEqual({ 'kandev.lsp.lease.s1.typescript': 'L1' });
  });

  it('S33 a connection replaced in the registry ignores its late socket events', async () => {
    const h = harness();
    const registry = new LspConnectionRegistry();
    const first = registry.getOrCreate('s1', 'typescript', h.create);
    first.start();
    await initialize(h.sockets[0]!);
    const second = registry.replace('s1', 'typescript', h.create);
    second.start();
    await initialize(h.sockets[1]!);
    expect(h.bindings[0]!.disposed).toBe(true);
    h.sockets[0]!.serverClose(4006);
    expect(second.getStatus().state).toBe('ready');
    expect(h.bindings[1]!.disposed).toBe(false);
    expect(registry.get('s1', 'typescript')).toBe(second);
  });

  it('S46 a retried connection starts without the old generation progress', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.receive({ jsonrpc: '2.0', method: '$/progress', params: { token: 'a', value: { kind: 'begin', title: 'Loading' } } });
    expect(c.progress().active).toHaveLength(1);
    h.sockets[0]!.serverClose(4006);
    c.retry();
    await initialize(h.sockets[1]!);
    expect(c.progress()).toEqual({ active: [] });
  });

  it('S31 a server exit (4006) after ready is an error with Retry, and forgets the lease hint', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.serverClose(4006);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'close.4006' } });
    expect(h.bindings[0]!.disposed).toBe(true);
    expect(h.storage.dump()).toEqual({});
  });

  it('C05 a transient loss shows reconnecting and reattaches with the lease hint, bounded', async () => {
    const h = harness({ reconnectDelaysMs: [100, 200] });
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.serverClose(1006);
    expect(c.getStatus()).toMatchObject({ state: 'reconnecting', message: { key: 'message.reconnecting', params: { attempt: 1, max: 2 } } });
    h.timers.advance(100);
    expect(h.sockets[1]!.url).toContain('lease=L1');
    h.sockets[1]!.serverClose(1006);
    h.timers.advance(200);
    h.sockets[2]!.serverClose(1006);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'close.connectionLost' } });
    expect(h.sockets).toHaveLength(3);
    expect(h.storage.dump()).toEqual({ 'kandev.lsp.lease.s1.typescript': 'L1' });
  });

  it('C05 a reconnect that finds its lease gone (a backend restart that could not keep it) says starting, not reconnecting, and initializes again', async () => {
    const h = harness({ reconnectDelaysMs: [100, 200] });
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.serverClose(1006);
    h.timers.advance(100);
    const again = h.sockets[1]!;
    again.open();
    expect(c.getStatus().state).toBe('reconnecting');
    // A fresh server: the connection is back, and what follows is a cold start, shown as one.
    again.receive({ ...READY, lease: 'L2' });
    expect(c.getStatus()).toMatchObject({ state: 'starting', phase: 'awaitingInitialize', message: { key: 'message.launched' } });
    expect(again.methods()).toEqual(['initialize']);
    again.receive({ jsonrpc: '2.0', id: again.lastRequest('initialize')!.id, result: { capabilities: { hoverProvider: true } } });
    await settle();
    expect(c.getStatus().state).toBe('ready');
    expect(h.storage.dump()).toEqual({ 'kandev.lsp.lease.s1.typescript': 'L2' });
  });

  it('stop sends release and ends Off on the released acknowledgement, clearing the hint', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    c.stop();
    expect(h.sockets[0]!.controls()).toEqual([{ control: 'release', reason: 'stop' }]);
    expect(c.getStatus()).toMatchObject({ state: 'stopping', message: { key: 'message.stopping' } });
    h.sockets[0]!.receive({ status: 'released', reason: 'stop' });
    expect(c.getStatus().state).toBe('off');
    expect(c.stoppedByUser).toBe(true);
    expect(h.storage.dump()).toEqual({});
    h.sockets[0]!.serverClose(1000);
    expect(c.getStatus().state).toBe('off');
  });

  /** A ready connection whose only file was just closed. */
  async function lastFileClosed() {
    const h = harness();
    h.documents.add('a.ts', 'x');
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.documents.remove('a.ts');
    return { h, c };
  }

  it('C06 the last editor closed arms a 2 minute idle timer that releases; reopening cancels it', async () => {
    const { h, c } = await lastFileClosed();
    h.timers.advance(60_000);
    h.documents.add('a.ts', 'x');
    h.timers.advance(120_000);
    expect(h.sockets[0]!.controls()).toEqual([]);
    h.documents.remove('a.ts');
    h.timers.advance(120_000);
    expect(h.sockets[0]!.controls()).toEqual([{ control: 'release', reason: 'editor_idle' }]);
    expect(c.stoppedByUser).toBe(false);
  });

  /** A ready connection whose only file was closed two minutes ago: the idle release is on its way. */
  async function idleReleasing() {
    const closed = await lastFileClosed();
    closed.h.timers.advance(120_000);
    return closed;
  }

  it('C06 a file opened while the idle release is on its way starts a fresh server once the release ended', async () => {
    for (const end of ['released', 'closed', 'stop timer'] as const) {
      const { h, c } = await idleReleasing();
      expect(c.getStatus().state).toBe('stopping');
      // Reopened now: the broker is already shutting the server down, so nothing starts yet.
      h.documents.add('a.ts', 'x');
      c.start();
      expect(h.sockets).toHaveLength(1);
      if (end === 'released') h.sockets[0]!.receive({ status: 'released', reason: 'editor_idle' });
      else if (end === 'closed') h.sockets[0]!.serverClose(1000);
      else h.timers.advance(10_000);
      expect(h.sockets, end).toHaveLength(2);
      expect(c.getStatus().state, end).toBe('connecting');
      await initialize(h.sockets[1]!);
      expect(c.getStatus().state, end).toBe('ready');
    }
  });

  it('an idle release with no file reopened stays Off', async () => {
    const { h, c } = await idleReleasing();
    h.sockets[0]!.receive({ status: 'released', reason: 'editor_idle' });
    expect(c.getStatus().state).toBe('off');
    expect(h.sockets).toHaveLength(1);
  });

  it('a Stop with a file open stays Off once released', async () => {
    const h = harness();
    h.documents.add('a.ts', 'x');
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    c.stop();
    h.sockets[0]!.receive({ status: 'released', reason: 'stop' });
    expect(c.getStatus().state).toBe('off');
    expect(h.sockets).toHaveLength(1);
  });

  it('install frames: installing, then install_failed detail survives the 4003 close (S12)', () => {
    const h = harness();
    const c = h.create();
    c.start();
    const s = h.sockets[0]!;
    s.open();
    s.receive({ status: 'installing', language: 'typescript' });
    expect(c.getStatus()).toMatchObject({ state: 'installing', message: { key: 'message.installing' } });
    s.receive({ status: 'install_failed', language: 'typescript', error: 'npm ERR! code E404' });
    s.serverClose(4003);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { text: 'npm ERR! code E404' } });
  });

  it('routes diagnostics to the current binding and didSave after a successful save', async () => {
    const h = harness();
    h.documents.add('a.ts', 'x');
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!, { textDocumentSync: { openClose: true, change: 2, save: { includeText: true } } });
    h.sockets[0]!.receive({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///ws/a.ts', diagnostics: [] } });
    expect(h.bindings[0]!.diagnostics).toHaveLength(1);
    h.documents.save('a.ts', 'x');
    expect(h.sockets[0]!.lastRequest('textDocument/didSave')).toMatchObject({ params: { textDocument: { uri: 'file:///ws/a.ts' }, text: 'x' } });
    expect(c.getStatus().state).toBe('ready');
  });

  it('S39 a launched process waiting for initialize is "starting" with a start time that elapsed time counts from', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    h.timers.advance(700);
    h.sockets[0]!.open();
    h.sockets[0]!.receive(READY);
    expect(c.getStatus()).toMatchObject({ state: 'starting', phase: 'awaitingInitialize', since: 700 });
    expect((h.sockets[0]!.lastRequest('initialize') as any).params.workDoneToken).toBe('kandev/initialize');
    h.timers.advance(5_000);
    // Nothing about the status changes while we wait: elapsed is now - since, computed by the surface.
    expect(c.getStatus()).toMatchObject({ state: 'starting', since: 700 });
  });

  it('S41 a minute (or ten) without an initialize answer neither restarts nor stops the server', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ ...READY, language: 'kotlin' });
    h.timers.advance(10 * 60_000);
    expect(c.getStatus()).toMatchObject({ state: 'starting', phase: 'awaitingInitialize', since: 0 });
    expect(h.sockets).toHaveLength(1);
    expect(h.sockets[0]!.closedWith).toBeUndefined();
    expect(h.sockets[0]!.controls()).toEqual([]);
    expect(h.sockets[0]!.methods()).toEqual(['initialize']);
  });

  it('S42 initialize-scoped progress (begin, report) shows while initializing and stays once ready', async () => {
    const h = harness();
    const c = h.create();
    const seen: unknown[] = [];
    c.onDidChangeProgress((p) => seen.push(p));
    c.start();
    const s = h.sockets[0]!;
    s.open();
    s.receive(READY);
    h.timers.advance(1_000);
    s.receive({
      jsonrpc: '2.0',
      method: '$/progress',
      params: { token: 'kandev/initialize', value: { kind: 'begin', title: 'Gradle import', message: 'Resolving :app', percentage: 5 } },
    });
    s.receive({
      jsonrpc: '2.0',
      method: '$/progress',
      params: { token: 'kandev/initialize', value: { kind: 'report', message: 'Resolving :lib', percentage: 140 } },
    });
    expect(c.getStatus().state).toBe('starting');
    expect(c.getProgress().active).toEqual([
      { token: 'kandev/initialize', title: 'Gradle import', message: 'Resolving :lib', percentage: 100, startedAt: 1_000 },
    ]);
    const init = s.lastRequest('initialize')!;
    s.receive({ jsonrpc: '2.0', id: init.id, result: { capabilities: {} } });
    await settle();
    expect(c.getStatus().state).toBe('ready');
    expect(c.getProgress().active).toHaveLength(1);
    expect(seen).toHaveLength(2);
    expect(c.getProgress()).toBe(c.getProgress()); // a stable snapshot for useSyncExternalStore
  });

  it('S46 nothing stale after stop, crash or retry: progress resets with the generation', async () => {
    const h = harness();
    const c = h.create();
    const begin = (s: any, token: string | number) =>
      s.receive({ jsonrpc: '2.0', method: '$/progress', params: { token, value: { kind: 'begin', title: `work ${token}` } } });
    c.start();
    await initialize(h.sockets[0]!);
    begin(h.sockets[0]!, 1);
    c.stop();
    h.sockets[0]!.receive({ status: 'released', reason: 'stop' });
    expect(c.getProgress()).toEqual({ active: [] });
    c.start();
    await initialize(h.sockets[1]!);
    begin(h.sockets[1]!, 'x');
    h.sockets[1]!.receive({ jsonrpc: '2.0', method: '$/progress', params: { token: 'x', value: { kind: 'end' } } });
    expect(c.getProgress().lastEnded).toMatchObject({ title: 'work x' });
    h.sockets[1]!.serverClose(4006);
    expect(c.getProgress()).toEqual({ active: [] });
    c.retry();
    expect(c.getProgress()).toEqual({ active: [] });
    // A late progress notification of a dead generation changes nothing.
    begin(h.sockets[1]!, 'late');
    await initialize(h.sockets[2]!);
    expect(c.getProgress()).toEqual({ active: [] });
  });

  it('installing shows the installer progress line; elapsed counts from the first installing frame', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    const s = h.sockets[0]!;
    s.open();
    h.timers.advance(100);
    s.receive({ status: 'installing', language: 'typescript' });
    expect(c.getStatus()).toMatchObject({ state: 'installing', since: 100, message: { key: 'message.installing' } });
    expect(c.getStatus().detail).toBeUndefined();
    h.timers.advance(2_000);
    s.receive({ status: 'installing', language: 'typescript', detail: 'added 12 packages in 2s' });
    expect(c.getStatus()).toMatchObject({ state: 'installing', since: 100, detail: 'added 12 packages in 2s' });
    s.receive({ status: 'installed', language: 'typescript' });
    expect(c.getStatus()).toMatchObject({ state: 'starting', phase: 'installed', since: 2_100 });
  });

  it('S12 a detailed install_failed stays visible after the generic 4003 close; S13 without it the localized fallback', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    h.sockets[0]!.open();
    h.sockets[0]!.receive({ status: 'installing', language: 'typescript' });
    h.sockets[0]!.receive({
      status: 'install_failed',
      language: 'typescript',
      error: 'npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.example/typescript-language-server',
    });
    h.sockets[0]!.serverClose(4003);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { text: expect.stringContaining('npm ERR! code E404') } });
    c.retry();
    h.sockets[1]!.open();
    h.sockets[1]!.serverClose(4003);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'close.4003' } });
  });

  it('S03 a Kotlin 4007 is unavailable with manual-setup guidance; Retry starts a fresh generation', async () => {
    const h = harness();
    const c = h.create();
    c.start();
    h.sockets[0]!.open();
    h.sockets[0]!.serverClose(4007);
    expect(c.getStatus()).toMatchObject({ state: 'unavailable', message: { key: 'close.4007' }, guidance: 'manualInstall' });
    c.retry();
    expect(h.sockets).toHaveLength(2);
    expect(c.getStatus().state).toBe('connecting');
  });
});

describe('LspConnection.detach (a session left in the background)', () => {
  it('lets go of a ready server without releasing it; start reattaches through the kept lease hint', async () => {
    const h = harness();
    h.documents.add('src/a.ts', 'let a = 1;');
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    expect(c.getStatus().state).toBe('ready');

    let closed = false;
    void c.detach()!.then(() => (closed = true));
    expect(c.getStatus().state).toBe('detached');
    expect(h.sockets[0]!.closedWith).toBe(1000);
    expect(h.sockets[0]!.controls()).toEqual([]); // no release: the broker keeps the server as a detached lease
    // What detach returns settles once the backend answered the close (the socket's close event).
    await settle();
    expect(closed).toBe(false);
    h.sockets[0]!.serverClose(1000);
    await settle();
    expect(closed).toBe(true);
    expect(c.detach()).toBeUndefined(); // already detached: nothing to let go
    expect(h.bindings[0]!.disposed).toBe(true);
    expect(h.storage.dump()).toEqual({ 'kandev.lsp.lease.s1.typescript': 'L1' });
    // A detached connection arms no idle release and no reconnect.
    h.timers.advance(10 * 60_000);
    expect(h.sockets).toHaveLength(1);

    c.start();
    expect(c.getStatus().state).toBe('connecting');
    const again = h.sockets[1]!;
    expect(again.url).toBe('/lsp/s1?language=typescript&lease=L1');
    again.open();
    again.receive({ ...READY, resumed: true, initializeResult: { capabilities: { hoverProvider: true, textDocumentSync: 2 } }, registrations: [] });
    await settle();
    expect(again.methods()).toEqual(['textDocument/didOpen']);
    expect(again.controls()).toEqual([{ control: 'attachment-ready' }]);
    again.receive({ status: 'synchronized' });
    expect(c.getStatus().state).toBe('ready');
  });

  it('a pending reconnect is cancelled by a detach, and the later start resumes at once', async () => {
    const h = harness();
    h.documents.add('src/a.ts', 'let a = 1;');
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.serverClose(1006);
    expect(c.getStatus().state).toBe('reconnecting');
    void c.detach();
    expect(c.getStatus().state).toBe('detached');
    h.timers.advance(1_000);
    expect(h.sockets).toHaveLength(1);
    c.start();
    expect(h.sockets[1]!.url).toContain('lease=L1');
  });

  it('does nothing while off, stopping, without a lease, or without open documents (the idle release ends that server)', async () => {
    const h = harness();
    const c = h.create();
    void c.detach();
    expect(c.getStatus().state).toBe('off');

    c.start(); // connecting, no lease admitted yet: nothing to keep warm
    void c.detach();
    expect(c.getStatus().state).toBe('connecting');
    await initialize(h.sockets[0]!);
    void c.detach(); // ready, but no document of its language is open
    expect(c.getStatus().state).toBe('ready');
    expect(h.sockets[0]!.closedWith).toBeUndefined();

    h.documents.add('src/a.ts', 'let a = 1;');
    c.stop();
    expect(c.getStatus().state).toBe('stopping');
    void c.detach();
    expect(c.getStatus().state).toBe('stopping');
    expect(h.sockets[0]!.controls()).toEqual([{ control: 'release', reason: 'stop' }]);
  });
});

describe('LspConnection refused for capacity (4005)', () => {
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

  it("lets go of the window's background servers and asks once more when their sockets closed, which the broker can then admit", async () => {
    let freed = 0;
    let closeThem!: () => void;
    const h = harness({ freeCapacity: () => (freed++, new Promise<void>((resolve) => (closeThem = resolve))) });
    h.documents.add('src/a.ts', 'let a = 1;');
    const c = h.create();
    c.start();
    h.sockets[0]!.open();
    h.sockets[0]!.serverClose(4005);
    expect(freed).toBe(1);
    expect(c.getStatus().state).toBe('connecting');
    // Their closes have not come: asked now, the broker would still count them attached and refuse again.
    h.timers.advance(CAPACITY_RETRY_MS * 4);
    expect(h.sockets).toHaveLength(1);
    closeThem();
    await flush();
    expect(h.sockets).toHaveLength(1);
    h.timers.advance(CAPACITY_RETRY_MS);
    expect(h.sockets).toHaveLength(2);
    await initialize(h.sockets[1]!);
    expect(c.getStatus().state).toBe('ready');
  });

  it('a close that never comes holds the new ask no longer than its bound', () => {
    const h = harness({ freeCapacity: () => new Promise<void>(() => undefined) });
    const c = h.create();
    c.start();
    h.sockets[0]!.serverClose(4005);
    h.timers.advance(CAPACITY_CLOSE_WAIT_MS - 1);
    expect(h.sockets).toHaveLength(1);
    h.timers.advance(1 + CAPACITY_RETRY_MS);
    expect(h.sockets).toHaveLength(2);
    expect(c.getStatus().state).toBe('connecting');
  });

  it('stopped while waiting for the closes, it asks nothing more', async () => {
    let closeThem!: () => void;
    const h = harness({ freeCapacity: () => new Promise<void>((resolve) => (closeThem = resolve)) });
    h.documents.add('src/a.ts', 'let a = 1;');
    const c = h.create();
    c.start();
    h.sockets[0]!.serverClose(4005);
    c.stop();
    closeThem();
    await flush();
    h.timers.advance(CAPACITY_CLOSE_WAIT_MS + CAPACITY_RETRY_MS);
    expect(h.sockets).toHaveLength(1);
    expect(c.getStatus().state).toBe('off');
  });

  it('a second refusal in the same start is final: the capacity error, with Retry', async () => {
    let freed = 0;
    const h = harness({ freeCapacity: () => (freed++, Promise.resolve()) });
    const c = h.create();
    c.start();
    h.sockets[0]!.serverClose(4005);
    await flush();
    h.timers.advance(CAPACITY_RETRY_MS);
    h.sockets[1]!.serverClose(4005);
    expect(freed).toBe(1);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'close.4005' } });
    c.retry(); // the person's Retry may free again
    h.sockets[2]!.serverClose(4005);
    expect(freed).toBe(2);
    expect(c.getStatus().state).toBe('connecting');
  });

  it('with nothing in the background to let go, the refusal is shown at once', () => {
    const h = harness({ freeCapacity: () => undefined });
    const c = h.create();
    c.start();
    h.sockets[0]!.serverClose(4005);
    expect(c.getStatus()).toMatchObject({ state: 'error', message: { key: 'close.4005' } });
    h.timers.advance(10_000);
    expect(h.sockets).toHaveLength(1);
  });
});

describe('LspConnection reconnect schedule', () => {
  it('keeps trying for at least the backend restart grace, so a restarted backend is met by the reconnect', () => {
    const total = DEFAULT_RECONNECT_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(DEFAULT_RESTART_GRACE_MS);
    // The first retries stay quick: a network blip resumes within a second.
    expect(DEFAULT_RECONNECT_DELAYS_MS[0]).toBeLessThanOrEqual(500);
  });
});

describe('LspConnection and the page sign-in', () => {
  it('a reconnect asks the sign-in first: refused, no socket is opened, the status says signed out, and nothing retries', async () => {
    let answer: AccessCheck = 'unreachable';
    let asked = 0;
    const access = new AccessWatch(async () => (asked++, answer));
    const h = harness({ reconnectDelaysMs: [100, 200, 400], access });
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.serverClose(1006);
    // The backend is down: the check gets no answer, the socket is tried as before.
    h.timers.advance(100);
    await settle();
    expect(asked).toBe(1);
    expect(h.sockets).toHaveLength(2);
    // It comes back with another token: the check is refused, and no socket is opened for it.
    answer = 'refused';
    h.sockets[1]!.serverClose(1006);
    h.timers.advance(200);
    await settle();
    expect(asked).toBe(2);
    expect(h.sockets).toHaveLength(2);
    expect(access.state).toBe('signed-out');
    expect(c.getStatus()).toMatchObject({ state: 'unavailable', message: { key: 'close.signedOut' } });
    h.timers.advance(10_000);
    await settle();
    expect(h.sockets).toHaveLength(2);
    expect(asked).toBe(2);
    // Signed in again: the same lease is asked for, by itself.
    answer = 'ok';
    expect(await access.recheck()).toBe(true);
    expect(h.sockets).toHaveLength(3);
    expect(h.sockets[2]!.url).toContain('lease=L1');
  });

  it('a 401 anywhere stops a pending reconnect at once; a start while signed out opens nothing', async () => {
    const access = new AccessWatch(async () => 'ok');
    const h = harness({ reconnectDelaysMs: [100], access });
    const c = h.create();
    c.start();
    await initialize(h.sockets[0]!);
    h.sockets[0]!.serverClose(1006);
    expect(c.getStatus().state).toBe('reconnecting');
    access.refused();
    expect(c.getStatus()).toMatchObject({ state: 'unavailable', message: { key: 'close.signedOut' } });
    h.timers.advance(1_000);
    await settle();
    expect(h.sockets).toHaveLength(1);
    c.stop();
    c.start();
    expect(h.sockets).toHaveLength(1);
    expect(c.getStatus().state).toBe('unavailable');
  });
});
