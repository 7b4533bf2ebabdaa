import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { requestDeadlineData } from '@kandev/protocol';
import { CancelSource } from './cancellation.js';
import { LspConnection } from './connection.js';
import type { FeatureContext } from './features.js';
import { LeaseHints, memoryStorage } from './leaseHint.js';
import type { RequestFailure } from './requestFailures.js';
import { FakeDocuments, FakeSocket, settle } from './testing/fakes.js';

const READY = { status: 'ready', lease: 'L1', resumed: false, workspaceUri: 'file:///ws', workspacePath: '/ws', repoSubpaths: [], language: 'typescript' };
const POSITION = { textDocument: { uri: 'file:///ws/a.ts' }, position: { line: 0, character: 0 } };

/** A ready connection whose requests go through the attachment's wiring, and the failures it reported. */
async function ready() {
  const sockets: FakeSocket[] = [];
  const contexts: FeatureContext[] = [];
  const reported: RequestFailure[] = [];
  const documents = new FakeDocuments();
  documents.add('a.ts', 'const a = 1;');
  const connection = new LspConnection({
    sessionId: 's1',
    language: 'typescript',
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    socketUrl: () => '/lsp/s1?language=typescript',
    leaseHints: new LeaseHints(memoryStorage()),
    documents,
    bindFeatures: (context) => {
      contexts.push(context);
      return { publishDiagnostics: () => undefined, applyEdit: async () => ({ applied: false }), dispose: () => undefined };
    },
    clock: new ManualClock(0),
    reconnectDelaysMs: [100],
    requestFailed: (failure) => void reported.push(failure),
  });
  connection.start();
  const socket = sockets[0]!;
  socket.open();
  socket.receive(READY);
  const init = socket.lastRequest('initialize')!;
  socket.receive({ jsonrpc: '2.0', id: init.id, result: { capabilities: { textDocumentSync: 2, completionProvider: {}, definitionProvider: true } } });
  await settle();
  const context = contexts[0]!;
  /** Sends a request through the context; its outcome (never an unhandled rejection). */
  const ask = (method: string, token?: CancelSource) => {
    const outcome = context.request(method, POSITION, token?.token).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { outcome, id: socket.lastRequest(method)?.id };
  };
  return { connection, socket, reported, ask };
}

describe('a request the person asked for that got no answer is reported once, with why', () => {
  it("the broker's deadline error: reported as a timeout, and the caller still sees the rejection", async () => {
    const h = await ready();
    const { outcome, id } = h.ask('textDocument/completion');
    h.socket.receive({
      jsonrpc: '2.0',
      id,
      error: { code: -32800, message: 'the language server did not answer within 2 s', data: requestDeadlineData(2_000) },
    });
    expect(await outcome).toMatchObject({ error: { code: -32800 } });
    expect(h.reported).toEqual([{ feature: 'completion', reason: 'timeout', deadlineMs: 2_000 }]);
  });

  it("an error answer: reported with the server's message", async () => {
    const h = await ready();
    const { outcome, id } = h.ask('textDocument/definition');
    h.socket.receive({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Could not find source file' } });
    await outcome;
    expect(h.reported).toEqual([{ feature: 'definition', reason: 'error', detail: 'Could not find source file' }]);
  });

  it('superseded (its token cancelled as the person typed on): cancelled at the server, nothing reported', async () => {
    const h = await ready();
    const source = new CancelSource();
    const { outcome, id } = h.ask('textDocument/completion', source);
    source.cancel();
    expect(h.socket.lastRequest('$/cancelRequest')).toMatchObject({ params: { id } });
    // The server's late answer to the cancelled request is dropped as well.
    h.socket.receive({ jsonrpc: '2.0', id, error: { code: -32800, message: 'Request cancelled' } });
    expect(await outcome).toMatchObject({ error: { name: 'RequestCancelledError' } });
    await settle();
    expect(h.reported).toEqual([]);
  });

  it('the connection lost while it waited: reported as lost', async () => {
    const h = await ready();
    const { outcome } = h.ask('textDocument/definition');
    h.socket.serverClose(1006);
    expect(await outcome).toMatchObject({ error: { name: 'EndpointClosedError' } });
    expect(h.connection.getStatus().state).toBe('reconnecting');
    expect(h.reported).toEqual([{ feature: 'definition', reason: 'lost' }]);
  });

  it('the person stopped the server, or the window let it go (detach): nothing reported', async () => {
    const stopped = await ready();
    const a = stopped.ask('textDocument/definition');
    stopped.connection.stop();
    // The socket closes with the request still pending: an end the person asked for, not a loss.
    stopped.socket.serverClose(1000);
    await a.outcome;
    expect(stopped.reported).toEqual([]);

    const detached = await ready();
    const b = detached.ask('textDocument/completion');
    detached.connection.detach();
    expect(detached.connection.getStatus().state).toBe('detached');
    expect(await b.outcome).toMatchObject({ error: { name: 'EndpointClosedError' } });
    expect(detached.reported).toEqual([]);
  });
});
