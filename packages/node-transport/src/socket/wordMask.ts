/**
 * WebSocket masking a 32-bit word at a time, behind the interface of ws's optional `bufferutil`
 * addon (`mask`, `unmask`). The bundle resolves `bufferutil` to this file (scripts/build.mjs):
 * without it ws falls back to a loop over every byte, which was the backend's top JavaScript frame
 * for large browser messages (a browser must mask every frame it sends, so the backend unmasks
 * every byte of them). The result is byte for byte the same; only the loop is shorter.
 */

const keyBytes = new Uint8Array(4);
const keyWord = new Uint32Array(keyBytes.buffer);

/** The mask as one native-endian word, rotated so that it starts at mask byte `at & 3`. */
function wordFrom(mask: Uint8Array, at: number): number {
  for (let k = 0; k < 4; k++) keyBytes[k] = mask[(at + k) & 3] as number;
  return keyWord[0] as number;
}

/** XORs `buffer[i]` with `mask[i & 3]`, in place. */
export function unmask(buffer: Uint8Array, mask: Uint8Array): void {
  const length = buffer.length;
  // Bytes up to the first 4-byte aligned address, then whole words, then the rest.
  const head = Math.min((4 - (buffer.byteOffset & 3)) & 3, length);
  let i = 0;
  for (; i < head; i++) buffer[i] = (buffer[i] as number) ^ (mask[i & 3] as number);
  const words = (length - i) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(buffer.buffer, buffer.byteOffset + i, words);
    const key = wordFrom(mask, i);
    for (let w = 0; w < words; w++) view[w] = (view[w] as number) ^ key;
    i += words * 4;
  }
  for (; i < length; i++) buffer[i] = (buffer[i] as number) ^ (mask[i & 3] as number);
}

/** Writes `source[i] ^ mask[i & 3]` for i < length to `output` from `offset`. */
export function mask(source: Uint8Array, maskBytes: Uint8Array, output: Uint8Array, offset: number, length: number): void {
  output.set(source.subarray(0, length), offset);
  unmask(output.subarray(offset, offset + length), maskBytes);
}
