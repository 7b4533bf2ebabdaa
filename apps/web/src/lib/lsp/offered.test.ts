import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { LspConnection } from './connection.js';
import { LeaseHints, memoryStorage } from './leaseHint.js';
import { FakeDocuments, FakeSocket, settle } from './testing/fakes.js';

const READY = { status: 'ready', lease: 'L1', resumed: false, workspaceUri: 'file:///ws', workspacePath: '/ws', repoSubpaths: [], language: 'python' };

function connection() {
  const sockets: FakeSocket[] = [];
  const c = new LspConnection({
    sessionId: 's1',
    language: 'python',
    openSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    socketUrl: (sid, lang) => `/lsp/${sid}?language=${lang}`,
    leaseHints: new LeaseHints(memoryStorage()),
    documents: new FakeDocuments(),
    bindFeatures: () => ({ publishDiagnostics: () => undefined, applyEdit: async () => ({ applied: false }), dispose: () => undefined }),
    clock: new ManualClock(0),
    reconnectDelaysMs: [100],
    idleReleaseMs: 120_000,
    stopTimeoutMs: 5_000,
    debounceMs: 50,
  });
  return { c, sockets };
}

describe('what the attached server offers (status details)', () => {
  it('is unknown until initialize is answered, then follows registrations, and is gone when the server stops', async () => {
    const { c, sockets } = connection();
    const changes: unknown[] = [];
    c.onDidChangeOffered(() => changes.push(c.getOffered()));
    c.start();
    const s = sockets[0]!;
    s.open();
    s.receive(READY);
    expect(c.getOffered()).toBeUndefined();
    const init = s.lastRequest('initialize')!;
    s.receive({ jsonrpc: '2.0', id: init.id, result: { capabilities: { hoverProvider: true, declarationProvider: true, textDocumentSync: 2 } } });
    await settle();
    expect(c.getOffered()).toEqual(['hover', 'declaration']);
    const before = c.getOffered();
    // pyright registers pull diagnostics after initialized.
    s.receive({
      jsonrpc: '2.0',
      id: 900,
      method: 'client/registerCapability',
      params: { registrations: [{ id: 'd1', method: 'textDocument/diagnostic', registerOptions: {} }] },
    });
    await settle();
    expect(c.getOffered()).toEqual(['hover', 'declaration', 'diagnostic']);
    s.receive({
      jsonrpc: '2.0',
      id: 901,
      method: 'client/unregisterCapability',
      params: { unregisterations: [{ id: 'd1', method: 'textDocument/diagnostic' }] },
    });
    await settle();
    expect(c.getOffered()).toEqual(before);
    c.stop();
    s.serverClose(1000);
    await settle();
    expect(c.getOffered()).toBeUndefined();
    expect(changes).toEqual([['hover', 'declaration'], ['hover', 'declaration', 'diagnostic'], ['hover', 'declaration'], undefined]);
  });
});
