/**
 * Splits a byte stream into JSON values, one per line (NDJSON). A line cut across chunks waits
 * for the rest; a line that is not JSON is skipped, never fatal to the stream.
 */
export class NdjsonDecoder<T> {
  private readonly text = new TextDecoder();
  private pending = '';

  push(chunk: Uint8Array): T[] {
    this.pending += this.text.decode(chunk, { stream: true });
    const lines = this.pending.split('\n');
    this.pending = lines.pop() ?? '';
    return lines.flatMap((line) => this.parse(line));
  }

  /** What a stream that ended left in the buffer (a last line without its newline). */
  end(): T[] {
    const rest = this.pending + this.text.decode();
    this.pending = '';
    return this.parse(rest);
  }

  private parse(line: string): T[] {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as T];
    } catch {
      return [];
    }
  }
}
