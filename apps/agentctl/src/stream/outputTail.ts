/**
 * Keeps the last `maxBytes` (UTF-8) of installer output: the end of a failing npm or go run is
 * where the actionable error is. Cuts on character boundaries so the tail stays valid text.
 */
export class OutputTail {
  private text = '';

  constructor(private readonly maxBytes: number) {}

  append(chunk: string): void {
    this.text = tailUtf8(this.text + chunk, this.maxBytes);
  }

  value(): string {
    return this.text;
  }
}

export function tailUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  // Each UTF-16 unit is at least one UTF-8 byte, so the last maxBytes units always hold enough.
  let start = Math.max(0, text.length - maxBytes);
  // Never start on the second half of a surrogate pair.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(text.charAt(start))) start++;
  text = text.slice(start);
  // Drop whole characters from the front until the rest fits.
  let chars = Array.from(text);
  let bytes = Buffer.byteLength(text);
  let drop = 0;
  while (bytes > maxBytes && drop < chars.length) {
    bytes -= Buffer.byteLength(chars[drop] as string);
    drop++;
  }
  chars = chars.slice(drop);
  return chars.join('');
}
