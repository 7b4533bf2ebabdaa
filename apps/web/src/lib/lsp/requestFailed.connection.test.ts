import { describe, expect, it } from 'vitest';
import { requestDeadlineData } from '@kandev/protocol';
import { CancelSource } from './cancellation.js';
import { readyConnection as ready } from './testing/readyConnection.js';
import { settle } from './testing/fakes.js';

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
    void detached.connection.detach();
    expect(detached.connection.getStatus().state).toBe('detached');
    expect(await b.outcome).toMatchObject({ error: { name: 'EndpointClosedError' } });
    expect(detached.reported).toEqual([]);
  });
});
