/**
 * What the bridge relays as bytes and what it refuses, with a fake socket and a fake server process:
 * client frames reach stdin exactly as they came (framed), server bodies reach the socket exactly
 * as the server wrote them, and frames that are not one JSON-RPC 2.0 object close 1007.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { ManualClock } from '@kandev/kit';
import { FrameSocket, type FrameSocketOptions } from '@kandev/node-transport';
import { FakeWs } from '@kandev/node-transport/testing';
import { describe, expect, it } from 'vitest';
import type { ExitInfo, LaunchedServer } from '../process/launch.js';
import { startBridge, type BridgeEnd } from './bridge.js';

function harness(socketOptions: FrameSocketOptions = {}, rewriteInitialize?: (text: string) => string) {
  const ws = new FakeWs();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: Buffer[] = [];
  stdin.on('data', (chunk: Buffer) => written.push(chunk));
  const child = Object.assign(new EventEmitter(), { stdin, stdout });
  let exit!: (info: ExitInfo) => void;
  const exited = new Promise<ExitInfo>((resolve) => (exit = resolve));
  const server = { child, pid: 1, marker: 'm', exited, hasExited: () => false } as unknown as LaunchedServer;
  const ends: BridgeEnd[] = [];
  const socket = new FrameSocket(ws, socketOptions);
  const clock = new ManualClock();
  startBridge(socket, server, { stdinCutoffMs: 30_000, exitFlushMs: 100, clock, ...(rewriteInitialize ? { rewriteInitialize } : {}) }, (end) => ends.push(end));
  const fromClient = (text: string) => ws.text(text);
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { ws, socket, fromClient, stdout, written, sent: ws.sent, ends, flush, clock, exit };
}

describe('bridge: relayed bytes', () => {
  it('writes a client frame to stdin byte for byte, whitespace, key order and escapes kept', async () => {
    const h = harness();
    const text = '{ "method" : "x/y", "jsonrpc":"2.0", "id":7, "params":{"s":"\\u00e9 日本 \\"id\\":1"} }';
    h.fromClient(text);
    await h.flush();
    const body = Buffer.from(text, 'utf8');
    expect(Buffer.concat(h.written)).toEqual(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    expect(h.ends).toEqual([]);
  });

  it("rewrites only the client's initialize request when asked (the launcher's paths), framed at its new length", async () => {
    const h = harness({}, (text) => text.replace('"params":{}', '"params":{"initializationOptions":{"typescript":{"tsdk":"/host/é"}}}'));
    const initialize = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
    const other = '{"jsonrpc":"2.0","id":1,"method":"initialize/not","params":{}}';
    const reply = '{"jsonrpc":"2.0","id":"s1","result":{"method":"initialize","params":{}}}';
    for (const text of [initialize, other, reply]) h.fromClient(text);
    await h.flush();
    const framed = (text: string) => Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n`), Buffer.from(text, 'utf8')]);
    const rewritten = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"initializationOptions":{"typescript":{"tsdk":"/host/é"}}}}';
    expect(Buffer.concat(h.written)).toEqual(Buffer.concat([framed(rewritten), framed(other), framed(reply)]));
  });

  it('sends server bodies as they were written, split across chunks or several in one', async () => {
    const h = harness();
    const a = Buffer.from('{"jsonrpc":"2.0","method":"window/logMessage","params":{"message":"ü"}}');
    const b = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{ "x" : [1, 2] }}');
    const framed = Buffer.concat([Buffer.from(`Content-Length: ${a.length}\r\n\r\n`), a, Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
    h.stdout.write(framed.subarray(0, 30));
    h.stdout.write(framed.subarray(30));
    await h.flush();
    expect(h.sent.map((s) => Buffer.from(s))).toEqual([a, b]);
  });

  it('decodes a server body that is not valid UTF-8 (replacement characters), never sends it as bytes', async () => {
    const h = harness();
    const bad = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"m","params":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    h.stdout.write(Buffer.concat([Buffer.from(`Content-Length: ${bad.length}\r\n\r\n`), bad]));
    await h.flush();
    expect(h.sent).toEqual(['{"jsonrpc":"2.0","method":"m","params":"\ufffd\ufffd"}']);
  });

  it('decodes a frame with escaped or repeated top-level keys to check it, and relays it when it is JSON-RPC', async () => {
    const h = harness();
    h.fromClient('{"jsonrpc":"2.0","\\u0069d":1,"method":"m","method":"n"}');
    await h.flush();
    expect(Buffer.concat(h.written).toString()).toContain('"\\u0069d":1');
    expect(h.ends).toEqual([]);
  });

  it.each([
    ['not JSON', '{not json'],
    ['an array', '[{"jsonrpc":"2.0","method":"x"}]'],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","method":"x"}'],
    ['a control frame', '{"control":"attachment-ready"}'],
    ['a truncated object', '{"jsonrpc":"2.0","id":1,"method":"x"'],
    ['trailing text', '{"jsonrpc":"2.0","method":"x"} x'],
    ['deep and not JSON-RPC', '['.repeat(300) + ']'.repeat(300)],
  ])('closes 1007 on %s and writes nothing', async (_what, text) => {
    const h = harness();
    h.fromClient(text);
    await h.flush();
    expect(h.ends).toMatchObject([{ kind: 'client_bad_frame', closeCode: 1007 }]);
    expect(h.written).toEqual([]);
  });

  it('answers a deep request itself and writes nothing to the server', async () => {
    const h = harness();
    h.fromClient(`{"jsonrpc":"2.0","id":"d","method":"x","params":${'['.repeat(300)}${']'.repeat(300)}}`);
    await h.flush();
    expect(h.written).toEqual([]);
    expect(JSON.parse(String(h.sent[0]))).toMatchObject({ id: 'd', error: { code: -32600 } });
    expect(h.ends).toEqual([]);
  });
});

describe('bridge: backpressure', () => {
  const framed = (body: string) => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  it("pauses the server's stdout above the socket's high watermark and resumes it at the low one", async () => {
    const h = harness({ highWatermarkBytes: 10, lowWatermarkBytes: 0 });
    h.stdout.write(framed('{"jsonrpc":"2.0","method":"a"}'));
    await h.flush();
    expect(h.stdout.isPaused()).toBe(true);
    h.ws.drainOne();
    expect(h.stdout.isPaused()).toBe(false);
  });

  it('a socket ended by a ws protocol error (an oversized frame) ends the bridge as a bad frame, 1009', () => {
    const h = harness();
    h.ws.emit('error', Object.assign(new RangeError('Max payload size exceeded'), { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' }));
    h.ws.emit('close', 1006);
    expect(h.ends).toMatchObject([{ kind: 'client_bad_frame', closeCode: 1009 }]);
  });
});

describe('bridge: server exit', () => {
  const framed = (body: string) => Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  it("relays the server's last words and reports the exit once its stdout ends, before the flush bound", async () => {
    const h = harness();
    h.exit({ code: 0, signal: null });
    await h.flush();
    expect(h.ends).toEqual([]);
    h.stdout.end(framed('{"jsonrpc":"2.0","method":"last"}'));
    await h.flush();
    expect(h.sent.map((s) => Buffer.from(s).toString())).toEqual(['{"jsonrpc":"2.0","method":"last"}']);
    expect(h.ends).toEqual([{ kind: 'server_exited', exit: { code: 0, signal: null } }]);
    expect(h.clock.pending).toBe(0);
  });

  it('reports the exit at the flush bound on the injected clock when a descendant keeps stdout open', async () => {
    const h = harness();
    h.exit({ code: 1, signal: null });
    await h.flush();
    h.clock.advance(99);
    expect(h.ends).toEqual([]);
    h.clock.advance(1);
    expect(h.ends).toEqual([{ kind: 'server_exited', exit: { code: 1, signal: null } }]);
  });
});
