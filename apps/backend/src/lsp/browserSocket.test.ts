import { FakeWs } from '@kandev/node-transport/testing';
import { describe, expect, it } from 'vitest';
import { BrowserSocket } from './browserSocket.js';

describe('BrowserSocket frame rules', () => {
  function browser() {
    const ws = new FakeWs();
    const socket = new BrowserSocket(ws);
    const frames: Array<Parameters<Parameters<BrowserSocket['onFrame']>[0]>[0]> = [];
    socket.onFrame((f) => frames.push(f));
    socket.resume();
    return { ws, socket, frames };
  }

  it('passes JSON-RPC messages and control frames on', () => {
    const { ws, frames } = browser();
    ws.text('{"jsonrpc":"2.0","id":1,"method":"initialize"}');
    ws.text('{"control":"release","reason":"stop"}');
    expect(frames).toEqual([
      {
        kind: 'jsonrpc',
        text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
        message: { jsonrpc: '2.0', id: 1, method: 'initialize' },
        raw: { text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}', bytes: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize"}'), idSpan: [22, 23] },
      },
      { kind: 'control', frame: { control: 'release', reason: 'stop' } },
    ]);
  });

  it('keeps the text for relaying only when its envelope is unambiguous', () => {
    const { ws, frames } = browser();
    ws.text('{"jsonrpc":"2.0","method":"m","params":{"id":7}}');
    ws.text('{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}');
    ws.text('{"jsonrpc":"2.0","\\u0069d":1,"method":"a"}');
    ws.text('{"jsonrpc":"2.0","id":{"x":1},"method":"a"}');
    // The bytes it arrived as travel with the text, to be relayed as they are.
    expect(frames.map((f) => (f.kind === 'jsonrpc' ? f.raw : 'control'))).toEqual([
      { text: '{"jsonrpc":"2.0","method":"m","params":{"id":7}}', bytes: Buffer.from('{"jsonrpc":"2.0","method":"m","params":{"id":7}}') },
      undefined,
      undefined,
      { text: '{"jsonrpc":"2.0","id":{"x":1},"method":"a"}', bytes: Buffer.from('{"jsonrpc":"2.0","id":{"x":1},"method":"a"}') },
    ]);
  });

  it.each([
    ['not JSON', 'hello'],
    ['a JSON array', '[{"jsonrpc":"2.0"}]'],
    ['a JSON string', '"x"'],
    ['an unknown object', '{"foo":1}'],
    ['a status frame', '{"status":"ready"}'],
  ])('closes 1007 on %s and forwards nothing', (_label, text) => {
    const { ws, frames } = browser();
    ws.text(text);
    ws.text('{"jsonrpc":"2.0","method":"after"}');
    expect(ws.closeCalls[0]?.[0]).toBe(1007);
    expect(frames).toEqual([]);
  });

  it('closes 1007 on a binary frame', () => {
    const { ws, frames } = browser();
    ws.emit('message', Buffer.from('{}'), true);
    expect(ws.closeCalls[0]?.[0]).toBe(1007);
    expect(frames).toEqual([]);
  });

  it('holds frames until a relay resumes it', () => {
    const ws = new FakeWs();
    const socket = new BrowserSocket(ws);
    ws.text('{"jsonrpc":"2.0","method":"early"}');
    const frames: unknown[] = [];
    socket.onFrame((f) => frames.push(f));
    expect(frames).toEqual([]);
    socket.resume();
    expect(frames).toHaveLength(1);
  });
});

describe('BrowserSocket nesting bound', () => {
  const deep = '['.repeat(4_500) + ']'.repeat(4_500);

  it('answers a too-deep request at once, drops a too-deep notification, passes a too-deep response on as an error; stays open', () => {
    const ws = new FakeWs();
    const refused: string[] = [];
    const socket = new BrowserSocket(ws, { onRefused: (kind) => refused.push(kind) });
    const frames: unknown[] = [];
    socket.onFrame((f) => frames.push(f));
    socket.resume();
    ws.text(`{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":${deep}}`);
    ws.text(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":${deep}}`);
    ws.text(`{"jsonrpc":"2.0","id":"srv-3","result":${deep}}`);
    expect(JSON.parse(ws.sent[0] as string)).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringContaining('256') } });
    expect(frames).toEqual([
      { kind: 'jsonrpc', text: expect.any(String), message: expect.objectContaining({ id: 'srv-3', error: expect.objectContaining({ code: -32600 }) }) },
    ]);
    expect(refused).toEqual(['request', 'notification', 'response']);
    expect(ws.closeCalls).toEqual([]);
    expect(socket.isClosed).toBe(false);
  });
});
