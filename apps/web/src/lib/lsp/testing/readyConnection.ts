import { ManualClock } from '@kandev/kit';
import { lspSocketPath } from '@kandev/protocol';
import type { CancelSource } from '../cancellation.js';
import { LspConnection } from '../connection.js';
import type { FeatureContext } from '../features.js';
import { LeaseHints, memoryStorage } from '../leaseHint.js';
import type { RequestFailure } from '../requestFailures.js';
import { FakeDocuments, FakeSocket, settle } from './fakes.js';

const READY = { status: 'ready', lease: 'L1', resumed: false, workspaceUri: 'file:///ws', workspacePath: '/ws', repoSubpaths: [], language: 'typescript' };
export const POSITION = { textDocument: { uri: 'file:///ws/a.ts' }, position: { line: 0, character: 0 } };
/** How long a change waits before its didChange goes out, in these connections. */
export const DEBOUNCE_MS = 150;

/**
 * A connection on a fake socket and a manual clock, past `initialize`, with `a.ts` open: its
 * requests go through the attachment's whole wiring (document sync, scheduler, failure reports).
 */
export async function readyConnection() {
  const sockets: FakeSocket[] = [];
  const contexts: FeatureContext[] = [];
  const reported: RequestFailure[] = [];
  const clock = new ManualClock(0);
  const documents = new FakeDocuments();
  const document = documents.add('a.ts', 'const a = 1;');
  const connection = new LspConnection({
    sessionId: 's1',
    language: 'typescript',
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    socketUrl: (session, language) => lspSocketPath(session, language),
    leaseHints: new LeaseHints(memoryStorage()),
    documents,
    bindFeatures: (context) => {
      contexts.push(context);
      return { publishDiagnostics: () => undefined, applyEdit: async () => ({ applied: false }), dispose: () => undefined };
    },
    clock,
    debounceMs: DEBOUNCE_MS,
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
  return { connection, socket, reported, ask, clock, document };
}
