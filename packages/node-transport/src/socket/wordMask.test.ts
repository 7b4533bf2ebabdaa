import { describe, expect, it } from 'vitest';
import { mask, unmask } from './wordMask.js';

/** The definition (RFC 6455 5.3), a byte at a time. */
function byteMask(data: Uint8Array, key: Uint8Array): Uint8Array {
  return data.map((b, i) => b ^ (key[i & 3] as number));
}

function bytes(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) & 0xff);
}

describe('word-at-a-time WebSocket masking', () => {
  const key = Uint8Array.of(0x12, 0x9a, 0x00, 0xff);

  it('unmasks like the byte loop at every alignment and length, in place', () => {
    for (let offset = 0; offset < 8; offset++) {
      for (const length of [0, 1, 3, 4, 5, 31, 32, 33, 64, 1001]) {
        const backing = bytes(offset + length + 8, length);
        const view = backing.subarray(offset, offset + length);
        const expected = byteMask(view, key);
        const after = backing.slice(offset + length);
        unmask(view, key);
        expect(Array.from(view)).toEqual(Array.from(expected));
        expect(Array.from(backing.subarray(offset + length))).toEqual(Array.from(after));
      }
    }
  });

  it('masks into an output at any offset, leaving the source and the rest of the output alone', () => {
    for (const offset of [0, 1, 2, 6]) {
      const source = bytes(77, offset);
      const output = new Uint8Array(100);
      mask(source, key, output, offset, 70);
      expect(Array.from(output.subarray(offset, offset + 70))).toEqual(Array.from(byteMask(source.subarray(0, 70), key)));
      expect(output.subarray(0, offset).every((b) => b === 0)).toBe(true);
      expect(output.subarray(offset + 70).every((b) => b === 0)).toBe(true);
      expect(Array.from(source)).toEqual(Array.from(bytes(77, offset)));
    }
  });

  it('unmasking twice gives the original back', () => {
    const data = bytes(4096, 3);
    const copy = data.slice();
    unmask(copy, key);
    unmask(copy, key);
    expect(Array.from(copy)).toEqual(Array.from(data));
  });
});
