import { describe, expect, it } from 'vitest';
import { readEnvelope } from './envelope.js';
import { scanJsonNesting } from './jsonDepth.js';
import { JOIN_PIECES_BELOW_BYTES, relayedAsIs, relayedWithId } from './relayed.js';

const utf8 = (pieces: readonly Uint8Array[] | undefined): string => Buffer.concat((pieces ?? []).map((p) => Buffer.from(p))).toString('utf8');

function spliced(text: string, id: string | number) {
  const span = readEnvelope(scanJsonNesting(text))!.idSpan!;
  return relayedWithId({ text, bytes: Buffer.from(text, 'utf8') }, span, id);
}

describe('relayedWithId', () => {
  const cases: Array<[string, string]> = [
    ['ASCII, id first', '{"jsonrpc":"2.0","id":7,"result":{"a":"b"}}'],
    ['non-ASCII before the id', '{"jsonrpc":"2.0","params":{"s":"ção 中文 😀"},"id":"b-1","method":"m"}'],
    ['non-ASCII after the id', '{"jsonrpc":"2.0","id":12,"result":"ção 中文 😀"}'],
    ['a string id with non-ASCII, spaced', '{ "jsonrpc" : "2.0" , "id" : "é-1" , "method" : "x" }'],
  ];
  for (const [name, text] of cases) {
    it(`writes the same bytes as the spliced text (${name})`, () => {
      for (const id of [3, 123456789, 'ü-42']) {
        const out = spliced(text, id);
        expect(out.wire).toHaveLength(1);
        expect(utf8(out.wire)).toBe(out.text);
        expect(JSON.parse(out.text).id).toBe(id);
      }
    });
  }

  it('a large message goes out as pieces around the id, the tail a view of the original bytes (no copy)', () => {
    const text = `{"jsonrpc":"2.0","id":5,"result":"${'é'.repeat(JOIN_PIECES_BELOW_BYTES)}"}`;
    const bytes = Buffer.from(text, 'utf8');
    const out = relayedWithId({ text, bytes }, readEnvelope(scanJsonNesting(text))!.idSpan!, 'browser-9');
    expect(out.wire).toHaveLength(2);
    expect(out.wire![1]!.buffer).toBe(bytes.buffer);
    expect(utf8(out.wire)).toBe(out.text);
    expect(JSON.parse(out.text).id).toBe('browser-9');
  });

  it('a large message whose id comes after the body is split there, counted from the end', () => {
    const text = `{"jsonrpc":"2.0","result":"${'中'.repeat(JOIN_PIECES_BELOW_BYTES)}","id":5}`;
    const out = spliced(text, 77);
    expect(out.wire!.length).toBeGreaterThan(1);
    expect(utf8(out.wire)).toBe(out.text);
    expect(JSON.parse(out.text).id).toBe(77);
  });

  it('without the bytes only the text is spliced', () => {
    expect(relayedWithId({ text: '{"id":1,"jsonrpc":"2.0"}' }, [6, 7], 2)).toEqual({ text: '{"id":2,"jsonrpc":"2.0"}' });
  });
});

describe('relayedAsIs', () => {
  it('passes the bytes it arrived as when kept, else the text alone', () => {
    const bytes = Buffer.from('{"a":"ç"}');
    expect(relayedAsIs({ text: '{"a":"ç"}', bytes }).wire).toEqual([bytes]);
    expect(relayedAsIs({ text: '{"a":"ç"}' })).toEqual({ text: '{"a":"ç"}' });
  });
});
