import { describe, expect, it } from 'vitest';
import { NdjsonDecoder } from './ndjson.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('NDJSON decoding of a streamed search', () => {
  it('yields each complete line, keeps a cut line (even a cut UTF-8 character) for the next chunk', () => {
    const decoder = new NdjsonDecoder<{ n: number; s?: string }>();
    const all = bytes('{"n":1}\n{"n":2,"s":"é"}\n{"n":3}');
    const cut = all.indexOf(0xc3) + 1; // inside the two bytes of é
    expect(decoder.push(all.subarray(0, cut))).toEqual([{ n: 1 }]);
    expect(decoder.push(all.subarray(cut))).toEqual([{ n: 2, s: 'é' }]);
    expect(decoder.end()).toEqual([{ n: 3 }]);
  });

  it('skips blank and malformed lines', () => {
    const decoder = new NdjsonDecoder<unknown>();
    expect(decoder.push(bytes('\n{oops\n{"ok":true}\n'))).toEqual([{ ok: true }]);
    expect(decoder.end()).toEqual([]);
  });
});
