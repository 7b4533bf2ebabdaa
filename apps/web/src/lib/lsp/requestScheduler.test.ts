import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { CancelSource } from './cancellation.js';
import { EndpointClosedError, JsonRpcEndpoint, RequestCancelledError, type JsonRpcMessage } from './jsonRpc.js';
import { REQUEST_CLASSES, requestClassOf } from './requestClasses.js';
import { PERSON_PAUSE_MS, RequestScheduler } from './requestScheduler.js';

const flush = () => new Promise((r) => setTimeout(r, 0));
const doc = { textDocument: { uri: 'file:///w/big.ts' } };
const at = { ...doc, position: { line: 40_000, character: 20 } };

/** A real endpoint over a recorded wire: what the server would see, in order, and a way to answer. */
function wire() {
  const clock = new ManualClock();
  const sent: JsonRpcMessage[] = [];
  const rpc = new JsonRpcEndpoint((m) => sent.push(m), { onRequest: () => null, onNotification: () => undefined });
  const scheduler = new RequestScheduler({ clock, send: (method, params, token) => rpc.request(method, params, token) });
  const requests = () => sent.filter((m) => m.id !== undefined).map((m) => `${m.method}#${m.id}`);
  const cancels = () => sent.filter((m) => m.method === '$/cancelRequest').map((m) => (m.params as { id: number }).id);
  const answer = (method: string, result: unknown) => {
    const open = sent.filter((m) => m.method === method && m.id !== undefined && !cancels().includes(m.id as number));
    const last = open[open.length - 1];
    if (!last) throw new Error(`no ${method} on the wire`);
    rpc.handle({ jsonrpc: '2.0', id: last.id as number, result });
  };
  const typed = () => {
    scheduler.noteNotification('textDocument/didChange');
    rpc.notify('textDocument/didChange', doc);
  };
  return { clock, sent, rpc, scheduler, requests, cancels, answer, typed };
}

describe('request classes: a table by method name', () => {
  it('the person asks for completion, hover, signature help, definition, rename; the editor asks on its own for tokens, outline, folding, hints, highlights, diagnostics, lenses, links, colors', () => {
    for (const m of ['textDocument/completion', 'textDocument/hover', 'textDocument/signatureHelp', 'textDocument/definition', 'textDocument/rename'])
      expect(requestClassOf(m, at)).toBe('person');
    for (const m of [
      'textDocument/semanticTokens/full',
      'textDocument/documentSymbol',
      'textDocument/foldingRange',
      'textDocument/inlayHint',
      'textDocument/documentHighlight',
      'textDocument/diagnostic',
      'textDocument/codeLens',
      'textDocument/documentLink',
      'textDocument/documentColor',
    ])
      expect(requestClassOf(m, doc)).toBe('background');
  });

  it("a code action is the person's when invoked, background when the editor asked as the caret rested", () => {
    expect(requestClassOf('textDocument/codeAction', { ...doc, context: { diagnostics: [], triggerKind: 1 } })).toBe('person');
    expect(requestClassOf('textDocument/codeAction', { ...doc, context: { diagnostics: [], triggerKind: 2 } })).toBe('background');
  });

  it('a method the table does not know is left alone', () => {
    expect(requestClassOf('custom/thing', {})).toBeUndefined();
    expect(REQUEST_CLASSES['initialize']).toBeUndefined();
  });
});

describe("RequestScheduler: the person's requests go first", () => {
  it('with nobody typing, background requests go out at once', async () => {
    const w = wire();
    const tokens = w.scheduler.request('textDocument/semanticTokens/full', doc);
    expect(w.requests()).toEqual(['textDocument/semanticTokens/full#1']);
    w.answer('textDocument/semanticTokens/full', { data: [1] });
    expect(await tokens).toEqual({ data: [1] });
    expect(w.scheduler.counts).toEqual({ held: 0, interrupted: 0, resent: 0 });
  });

  it('the burst after opening is cancelled at the server when the person types, the completion goes out alone, and the burst is sent again once the person pauses: every caller gets its answer', async () => {
    const w = wire();
    const burst = ['textDocument/semanticTokens/full', 'textDocument/documentSymbol', 'textDocument/foldingRange'].map((m) => w.scheduler.request(m, doc));
    expect(w.requests()).toEqual(['textDocument/semanticTokens/full#1', 'textDocument/documentSymbol#2', 'textDocument/foldingRange#3']);

    w.typed();
    // At the keystroke, before anything else reaches the server: the burst is cancelled there.
    expect(w.cancels()).toEqual([1, 2, 3]);
    const completion = w.scheduler.request('textDocument/completion', at);
    // Background asked meanwhile waits too.
    const hints = w.scheduler.request('textDocument/inlayHint', doc);
    expect(w.requests()).toEqual([
      'textDocument/semanticTokens/full#1',
      'textDocument/documentSymbol#2',
      'textDocument/foldingRange#3',
      'textDocument/completion#4',
    ]);
    w.clock.advance(PERSON_PAUSE_MS * 4);
    expect(w.requests()).toHaveLength(4); // nothing while the completion is pending
    w.answer('textDocument/completion', { isIncomplete: false, items: [{ label: 'toFixed' }] });
    expect(await completion).toEqual({ isIncomplete: false, items: [{ label: 'toFixed' }] });
    await flush();
    w.clock.advance(PERSON_PAUSE_MS - 1);
    expect(w.requests()).toHaveLength(4);
    w.clock.advance(1);
    expect(w.requests().slice(4)).toEqual([
      'textDocument/semanticTokens/full#5',
      'textDocument/documentSymbol#6',
      'textDocument/foldingRange#7',
      'textDocument/inlayHint#8',
    ]);
    w.answer('textDocument/semanticTokens/full', { data: [2] });
    w.answer('textDocument/documentSymbol', []);
    w.answer('textDocument/foldingRange', []);
    w.answer('textDocument/inlayHint', []);
    expect(await Promise.all([...burst, hints])).toEqual([{ data: [2] }, [], [], []]);
    expect(w.scheduler.counts).toEqual({ held: 1, interrupted: 3, resent: 3 });
  });

  it('each keystroke pushes the pause out: background goes PERSON_PAUSE_MS after the last one', () => {
    const w = wire();
    w.typed();
    void w.scheduler.request('textDocument/documentSymbol', doc);
    for (let i = 0; i < 5; i++) {
      w.clock.advance(PERSON_PAUSE_MS - 100);
      w.typed();
    }
    expect(w.requests()).toEqual([]);
    w.clock.advance(PERSON_PAUSE_MS);
    expect(w.requests()).toEqual(['textDocument/documentSymbol#1']);
  });

  it('a held request whose caller gives up is never sent; one on the wire is cancelled at the server', async () => {
    const w = wire();
    const onWire = new CancelSource();
    const sentOne = w.scheduler.request('textDocument/foldingRange', doc, onWire.token);
    onWire.cancel();
    await expect(sentOne).rejects.toBeInstanceOf(RequestCancelledError);
    expect(w.cancels()).toEqual([1]);

    w.typed();
    const waiting = new CancelSource();
    const heldOne = w.scheduler.request('textDocument/documentSymbol', doc, waiting.token);
    waiting.cancel();
    await expect(heldOne).rejects.toBeInstanceOf(RequestCancelledError);
    w.clock.advance(PERSON_PAUSE_MS);
    expect(w.requests()).toEqual(['textDocument/foldingRange#1']);
  });

  it('a completion superseded by the next keystroke is cancelled at the server, and a hover waits behind nothing', async () => {
    const w = wire();
    const first = new CancelSource();
    const superseded = w.scheduler.request('textDocument/completion', at, first.token);
    first.cancel();
    await expect(superseded).rejects.toBeInstanceOf(RequestCancelledError);
    expect(w.cancels()).toEqual([1]);
    void w.scheduler.request('textDocument/documentHighlight', at);
    void w.scheduler.request('textDocument/hover', at);
    expect(w.requests()).toEqual(['textDocument/completion#1', 'textDocument/hover#2']);
  });

  it('methods the table does not know pass straight through, held or not', () => {
    const w = wire();
    w.typed();
    void w.scheduler.request('custom/status', {});
    expect(w.requests()).toEqual(['custom/status#1']);
  });

  it("the generation ending rejects what was held, like the endpoint's own pending requests", async () => {
    const w = wire();
    w.typed();
    const held = w.scheduler.request('textDocument/documentSymbol', doc);
    w.scheduler.dispose();
    await expect(held).rejects.toBeInstanceOf(EndpointClosedError);
    expect(w.clock.pending).toBe(0);
  });
});
