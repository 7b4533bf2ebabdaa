/**
 * Raw relaying: what the broker passes on travels as the peer's own text (id spliced), what it owns
 * is decoded and routed as before. Each raw frame is built the way the wiring builds it
 * (upstreamLinks.ts, browserSocket.ts), and the outcome on the wire must equal the decoded path's.
 */
import { describe, expect, it } from 'vitest';
import { parseFrame, readEnvelope, scanJsonNesting } from '@kandev/protocol';
import { BrokerHarness, diagnostics, didOpen, notif, req, res } from './testkit.js';
import type { Effect, JsonRpcMessage, LeaseId } from './types.js';

const HOVER = { textDocument: { uri: 'file:///workspace/repoA/main.go' }, position: { line: 1, character: 2 } };

/** A server frame as UpstreamLinks hands it over: raw when its envelope is readable. */
function rawFromServer(h: BrokerHarness, leaseId: LeaseId, text: string): Effect[] {
  const scan = scanJsonNesting(text);
  const envelope = readEnvelope(scan);
  if (!envelope) throw new Error(`not relayable: ${text}`);
  return h.handle({ type: 'upstreamFrame', leaseId, frame: { kind: 'raw', text, bytes: Buffer.from(text), envelope, scan } });
}

/** A browser frame as BrowserSocket hands it over: decoded, with its text kept for relaying. */
function rawFromBrowser(h: BrokerHarness, attachmentId: string, text: string): Effect[] {
  const scan = scanJsonNesting(text);
  const parsed = parseFrame(text, scan);
  const envelope = readEnvelope(scan);
  if (parsed.kind !== 'jsonrpc' || !envelope) throw new Error(`not relayable: ${text}`);
  const bytes = Buffer.from(text);
  const raw = envelope.idSpan ? { text, bytes, idSpan: envelope.idSpan } : { text, bytes };
  return h.handle({ type: 'browserFrame', attachmentId, frame: { kind: 'jsonrpc', message: parsed.message, raw } });
}

type Wire = { to: string; message: unknown } | Effect;

/**
 * A relayed message's text, after checking that the bytes the socket writes (`wire`, the original
 * bytes split around the spliced id) are exactly that text in UTF-8.
 */
function relayedText(e: Extract<Effect, { type: 'relayToBrowser' | 'relayToUpstream' }>): string {
  expect(e.wire, 'a relayed message goes out as its own bytes').toBeDefined();
  expect(Buffer.concat((e.wire ?? []).map((piece) => Buffer.from(piece))).toString('utf8')).toBe(e.text);
  return e.text;
}

/** A relay effect without its bytes (checked by relayedText), to compare with an expected effect. */
function asText(e: Effect): Effect {
  if (e.type !== 'relayToBrowser' && e.type !== 'relayToUpstream') return e;
  relayedText(e);
  const { wire: _wire, ...rest } = e;
  return rest;
}

/** Effects as the peers see them: relayed text and encoded messages alike, decoded. */
function onWire(effects: readonly Effect[]): Wire[] {
  return effects.map((e) => {
    switch (e.type) {
      case 'sendToBrowser':
        return { to: `browser:${e.attachmentId}`, message: e.frame };
      case 'relayToBrowser':
        return { to: `browser:${e.attachmentId}`, message: JSON.parse(relayedText(e)) };
      case 'sendToUpstream':
        return { to: `server:${e.leaseId}`, message: e.message };
      case 'relayToUpstream':
        return { to: `server:${e.leaseId}`, message: JSON.parse(relayedText(e)) };
      default:
        return e;
    }
  });
}

const relayedTypes = (effects: readonly Effect[]) => effects.map((e) => e.type);

/** Two brokers in the same state: one fed decoded frames, one raw frames. */
function pair(): { decoded: BrokerHarness; raw: BrokerHarness; lease: LeaseId } {
  const decoded = new BrokerHarness();
  const raw = new BrokerHarness();
  const lease = decoded.readyLease('tab');
  expect(raw.readyLease('tab')).toBe(lease);
  return { decoded, raw, lease };
}

describe('server messages relayed raw', () => {
  it("a result reaches the browser as the server's own text with only the id replaced", () => {
    const { raw, lease } = pair();
    const sent = raw.fromBrowser('tab', req('b-1', 'textDocument/hover', HOVER));
    const serverId = (sent.find((e) => e.type === 'sendToUpstream') as Extract<Effect, { type: 'sendToUpstream' }>).message.id as number;
    const text = `{ "jsonrpc": "2.0", "result": {"id": 77, "contents": "\\"id\\": ${serverId}"}, "id" : ${serverId} }`;
    const fx = rawFromServer(raw, lease, text).map(asText);
    expect(fx).toContainEqual({
      type: 'relayToBrowser',
      attachmentId: 'tab',
      text: `{ "jsonrpc": "2.0", "result": {"id": 77, "contents": "\\"id\\": ${serverId}"}, "id" : "b-1" }`,
    });
    expect(raw.broker.lease(lease)).toMatchObject({ pendingRequests: 0 });
  });

  it("a large result goes out as pieces of the server's own bytes around the new id, never joined or encoded again", () => {
    const { raw, lease } = pair();
    const sent = raw.fromBrowser('tab', req('b-1', 'textDocument/hover', HOVER));
    const serverId = (sent.find((e) => e.type === 'sendToUpstream') as Extract<Effect, { type: 'sendToUpstream' }>).message.id as number;
    const body = 'ção 😀 '.repeat(20_000);
    const text = `{"jsonrpc":"2.0","result":{"contents":"${body}"},"id":${serverId}}`;
    const relayed = rawFromServer(raw, lease, text).find((e) => e.type === 'relayToBrowser') as Extract<Effect, { type: 'relayToBrowser' }>;
    expect(relayed.wire!.length).toBeGreaterThan(1);
    expect(JSON.parse(relayedText(relayed))).toEqual({ jsonrpc: '2.0', result: { contents: body }, id: 'b-1' });
  });

  it('an unowned notification is relayed byte for byte; owned ones are decoded', () => {
    const { raw, lease } = pair();
    const log = '{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":3,"message":"id: 1","id":5}}';
    expect(rawFromServer(raw, lease, log).map(asText)).toEqual([{ type: 'relayToBrowser', attachmentId: 'tab', text: log }]);
    const progress = JSON.stringify(notif('$/progress', { token: 't', value: { kind: 'begin', title: 'Indexing' } }));
    expect(relayedTypes(rawFromServer(raw, lease, progress))).toEqual(['sendToBrowser']);
    expect(raw.broker.lease(lease)).toBeDefined();
  });

  it.each([
    ['an error response', (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32800, message: 'cancelled' } })],
    ['a result response', (id: number) => res(id, { contents: 'x'.repeat(100) })],
    ['a late response for no pending request', (id: number) => res(id + 1000, null)],
    ['an unowned notification', () => notif('window/showMessage', { type: 3, message: 'hello' })],
    ['$/progress', () => notif('$/progress', { token: 't', value: { kind: 'begin', title: 'Indexing' } })],
    ['diagnostics for a document the browser has open', () => diagnostics('file:///workspace/repoA/main.go', 1)],
    ['a server $/cancelRequest', () => notif('$/cancelRequest', { id: 1 })],
    ['a server request the broker answers', () => req(900, 'workspace/configuration', { items: [{ section: 'gopls' }] })],
    [
      'a server request forwarded to the browser',
      () => req(901, 'client/registerCapability', { registrations: [{ id: 'r', method: 'workspace/didChangeWatchedFiles' }] }),
    ],
    ['a request with a null id', () => ({ jsonrpc: '2.0', id: null, method: 'x' })],
    ['neither request nor response', (id: number) => ({ jsonrpc: '2.0', id })],
  ])('%s: the peers see the same as on the decoded path', (_what, build) => {
    const { decoded, raw, lease } = pair();
    for (const h of [decoded, raw]) h.fromBrowser('tab', didOpen('file:///workspace/repoA/main.go', 1, 'package main'));
    const [a, b] = [decoded, raw].map((h) => h.fromBrowser('tab', req('b-1', 'textDocument/hover', HOVER)));
    expect(onWire(b as Effect[])).toEqual(onWire(a as Effect[]));
    const serverId = ((a as Effect[]).find((e) => e.type === 'sendToUpstream') as Extract<Effect, { type: 'sendToUpstream' }>).message.id as number;
    const message = build(serverId) as JsonRpcMessage;
    const viaDecoded = decoded.fromServer(lease, message);
    const viaRaw = rawFromServer(raw, lease, JSON.stringify(message));
    expect(onWire(viaRaw)).toEqual(onWire(viaDecoded));
    expect(raw.broker.lease(lease)).toEqual(decoded.broker.lease(lease));
  });

  it('the initialize answer and the shutdown answer are decoded, never relayed', () => {
    const h = new BrokerHarness();
    const connect = h.connect('tab');
    const lease = (connect.find((e) => e.type === 'openUpstream') as Extract<Effect, { type: 'openUpstream' }>).leaseId;
    h.hostReady(lease);
    const init = h.fromBrowser('tab', req('i', 'initialize', { capabilities: {} }));
    const initId = (init.find((e) => e.type === 'sendToUpstream') as Extract<Effect, { type: 'sendToUpstream' }>).message.id as number;
    const answered = rawFromServer(h, lease, JSON.stringify(res(initId, { capabilities: { hoverProvider: true } })));
    expect(relayedTypes(answered)).not.toContain('relayToBrowser');
    expect(onWire(answered)).toContainEqual({ to: 'browser:tab', message: { jsonrpc: '2.0', id: 'i', result: { capabilities: { hoverProvider: true } } } });
    expect(h.broker.lease(lease)?.initialize).toBe('answered');
  });

  it('a detached lease relays nothing and still drains', () => {
    const { raw, lease } = pair();
    raw.closeBrowser('tab');
    expect(rawFromServer(raw, lease, JSON.stringify(notif('window/showMessage', { message: 'x' })))).toEqual([]);
  });
});

describe('browser messages relayed raw', () => {
  it("a request goes upstream as the browser's own text with the server-facing id spliced in", () => {
    const { raw, lease } = pair();
    const text = '{"jsonrpc":"2.0","method":"textDocument/hover","params":{"id":"b-1","s":"\\"id\\":\\"b-1\\""} , "id":"b-1"}';
    const fx = rawFromBrowser(raw, 'tab', text);
    const relayed = fx.find((e) => e.type === 'relayToUpstream') as Extract<Effect, { type: 'relayToUpstream' }>;
    expect(relayed.leaseId).toBe(lease);
    const serverId = JSON.parse(relayedText(relayed)).id as number;
    expect(typeof serverId).toBe('number');
    expect(relayed.text).toBe(`{"jsonrpc":"2.0","method":"textDocument/hover","params":{"id":"b-1","s":"\\"id\\":\\"b-1\\""} , "id":${serverId}}`);
    // and the answer finds its way back under the browser's id
    expect(onWire(rawFromServer(raw, lease, `{"jsonrpc":"2.0","id":${serverId},"result":null}`))).toContainEqual({
      to: 'browser:tab',
      message: { jsonrpc: '2.0', id: 'b-1', result: null },
    });
  });

  it('an unowned notification goes upstream byte for byte', () => {
    const { raw, lease } = pair();
    const text = '{ "jsonrpc":"2.0", "method":"textDocument/didSave", "params":{"textDocument":{"uri":"file:///w/a.go"}} }';
    expect(rawFromBrowser(raw, 'tab', text).map(asText)).toEqual([{ type: 'relayToUpstream', leaseId: lease, text }]);
  });

  it.each([
    ['initialize again', () => req('i2', 'initialize', { capabilities: {} })],
    ['shutdown', () => req('s', 'shutdown')],
    ['a request', () => req(42, 'textDocument/definition', HOVER)],
    ["didOpen (its version is the broker's)", () => didOpen('file:///workspace/repoA/b.go', 7, 'package b')],
    ['didChangeConfiguration (the broker owns settings)', () => notif('workspace/didChangeConfiguration', { settings: {} })],
    ['$/cancelRequest for a pending request', () => notif('$/cancelRequest', { id: 'pending' })],
    ['exit', () => notif('exit')],
    ['an unowned notification', () => notif('textDocument/didSave', { textDocument: { uri: 'file:///workspace/repoA/main.go' } })],
    ['a response to nothing', () => res('nobody', null)],
  ])('%s: the peers see the same as on the decoded path', (_what, build) => {
    const { decoded, raw } = pair();
    for (const h of [decoded, raw]) h.fromBrowser('tab', req('pending', 'textDocument/hover', HOVER));
    const message = build();
    expect(onWire(rawFromBrowser(raw, 'tab', JSON.stringify(message)))).toEqual(onWire(decoded.fromBrowser('tab', message)));
  });
});
