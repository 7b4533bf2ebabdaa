import { describe, expect, it } from 'vitest';
import { encodeLspFrame, FramingError, LspFrameDecoder } from './framing.js';

const enc = (s: string) => new TextEncoder().encode(s);
const frame = (body: string) => encodeLspFrame(body);

describe('LspFrameDecoder', () => {
  it('decodes one frame delivered byte by byte', () => {
    const d = new LspFrameDecoder();
    const bytes = frame('{"jsonrpc":"2.0","id":1}');
    const out: string[] = [];
    for (const b of bytes) out.push(...d.push(Uint8Array.of(b)));
    expect(out).toEqual(['{"jsonrpc":"2.0","id":1}']);
  });

  it('decodes several frames merged into one chunk, and a split one across chunks', () => {
    const d = new LspFrameDecoder();
    const a = frame('{"a":1}');
    const b = frame('{"b":2}');
    const c = frame('{"c":3}');
    const merged = new Uint8Array([...a, ...b, ...c.subarray(0, 5)]);
    expect(d.push(merged)).toEqual(['{"a":1}', '{"b":2}']);
    expect(d.push(c.subarray(5))).toEqual(['{"c":3}']);
  });

  it('counts Content-Length in UTF-8 bytes, not characters', () => {
    const body = '{"text":"olá 世界 🚀"}';
    const bytes = frame(body);
    const header = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(13)));
    expect(header).toBe(`Content-Length: ${enc(body).length}`);
    expect(enc(body).length).toBeGreaterThan(body.length);
    const d = new LspFrameDecoder();
    // Split inside a multi-byte sequence: the decoder must join bytes before decoding text.
    const cut = bytes.length - 4;
    expect(d.push(bytes.subarray(0, cut))).toEqual([]);
    expect(d.push(bytes.subarray(cut))).toEqual([body]);
  });

  it('accepts other headers and any header case', () => {
    const d = new LspFrameDecoder();
    const msg = 'content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}';
    expect(d.push(enc(msg))).toEqual(['{}']);
  });

  it('refuses a body over the bound from its header alone, without buffering it', () => {
    const d = new LspFrameDecoder({ maxBodyBytes: 10 });
    expect(() => d.push(enc('Content-Length: 11\r\n\r\n'))).toThrowError(FramingError);
    // The decoder stays failed: a caller cannot keep feeding a refused stream.
    expect(() => d.push(enc('{}'))).toThrowError(/body_too_large/);
  });

  it('accepts a body exactly at the bound', () => {
    const d = new LspFrameDecoder({ maxBodyBytes: 10 });
    expect(d.push(enc('Content-Length: 10\r\n\r\n0123456789'))).toEqual(['0123456789']);
  });

  it('refuses a header line over 8 KiB even before its line end arrives', () => {
    const d = new LspFrameDecoder();
    expect(() => d.push(enc(`X-Long: ${'a'.repeat(8 * 1024)}`))).toThrowError(/header_line_too_long/);
  });

  it('refuses a complete header line over the bound', () => {
    const d = new LspFrameDecoder({ maxHeaderLineBytes: 16 });
    expect(() => d.push(enc(`X-Long: ${'a'.repeat(20)}\r\n`))).toThrowError(/header_line_too_long/);
  });

  it('refuses header blocks over 32 KiB made of short lines', () => {
    const d = new LspFrameDecoder();
    const line = `X-Pad: ${'b'.repeat(1000)}\r\n`;
    expect(() => d.push(enc(line.repeat(40)))).toThrowError(/headers_too_long/);
  });

  it('refuses a missing or malformed Content-Length', () => {
    expect(() => new LspFrameDecoder().push(enc('Content-Type: x\r\n\r\n{}'))).toThrowError(/bad_header/);
    expect(() => new LspFrameDecoder().push(enc('Content-Length: -1\r\n\r\n'))).toThrowError(/bad_content_length/);
    expect(() => new LspFrameDecoder().push(enc('Content-Length: 1e3\r\n\r\n'))).toThrowError(/bad_content_length/);
    expect(() => new LspFrameDecoder().push(enc('garbage\r\n\r\n'))).toThrowError(/bad_header/);
  });

  it('encodeLspFrame refuses a body over the bound', () => {
    expect(() => encodeLspFrame('x'.repeat(11), 10)).toThrowError(/body_too_large/);
  });
});
