import { describe, expect, it } from 'vitest';
import { PERSON_PAUSE_MS } from './requestScheduler.js';
import { settle } from './testing/fakes.js';
import { DEBOUNCE_MS, readyConnection } from './testing/readyConnection.js';

describe('an edit makes way for the person at the keystroke', () => {
  it("the editor's own request on the wire is cancelled at the server as the document changes, and asked again once the person pauses", async () => {
    const h = await readyConnection();
    const outline = h.ask('textDocument/documentSymbol');
    expect(outline.id).toBeDefined();
    const sentBefore = h.socket.sent.length;

    h.document.type('const a = 12;');
    // The outline the server is computing is called off first, then the edit goes out (at once:
    // incremental sync), so the server drops the stale work before it applies the change.
    expect(h.socket.methods().slice(sentBefore)).toEqual(['$/cancelRequest', 'textDocument/didChange']);
    expect(h.socket.lastRequest('$/cancelRequest')).toMatchObject({ params: { id: outline.id } });
    h.clock.advance(DEBOUNCE_MS);
    expect(h.socket.methods().filter((m) => m === 'textDocument/didChange')).toHaveLength(1);
    // The server's answer to the cancelled attempt is dropped; the outline is asked again after the pause.
    h.socket.receive({ jsonrpc: '2.0', id: outline.id, error: { code: -32800, message: 'Request cancelled' } });
    await settle();
    h.clock.advance(PERSON_PAUSE_MS);
    const again = h.socket.lastRequest('textDocument/documentSymbol')!;
    expect(again.id).not.toBe(outline.id);
    h.socket.receive({ jsonrpc: '2.0', id: again.id, result: [{ name: 'a' }] });
    expect(await outline.outcome).toEqual({ value: [{ name: 'a' }] });
  });
});
