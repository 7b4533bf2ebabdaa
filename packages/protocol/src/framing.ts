import { LSP_MAX_BODY_BYTES, LSP_MAX_HEADER_BYTES, LSP_MAX_HEADER_LINE_BYTES } from './bounds.js';

export type FramingErrorCode = 'header_line_too_long' | 'headers_too_long' | 'body_too_large' | 'bad_content_length' | 'bad_header';

export class FramingError extends Error {
  constructor(readonly code: FramingErrorCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'FramingError';
  }
}

export interface FramerLimits {
  maxBodyBytes: number;
  maxHeaderLineBytes: number;
  maxHeaderBytes: number;
}

export const DEFAULT_FRAMER_LIMITS: FramerLimits = {
  maxBodyBytes: LSP_MAX_BODY_BYTES,
  maxHeaderLineBytes: LSP_MAX_HEADER_LINE_BYTES,
  maxHeaderBytes: LSP_MAX_HEADER_BYTES,
};

const CR = 13;
const utf8Decoder = new TextDecoder('utf-8');
const LF = 10;

/**
 * Decodes the LSP base protocol (`Content-Length: N\r\n\r\n<N bytes>`) from a byte stream.
 * Bounded by design: a header line, the header block and a body each have a limit, and a body is
 * refused from its declared length alone, before a byte of it is buffered. After an error the
 * decoder stays failed; the caller closes that connection.
 */
export class LspFrameDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private bodyLength: number | undefined;
  private headerBytes = 0;
  /** Content-Length of the header block being read; header lines may arrive across pushes. */
  private pendingContentLength: number | undefined;
  private failed: FramingError | undefined;
  private readonly limits: FramerLimits;

  constructor(limits: Partial<FramerLimits> = {}) {
    this.limits = { ...DEFAULT_FRAMER_LIMITS, ...limits };
  }

  /** Feeds bytes; returns the complete bodies (UTF-8 text) they finished. Throws FramingError. */
  push(chunk: Uint8Array): string[] {
    return this.pushBytes(chunk).map((body) => utf8Decoder.decode(body));
  }

  /**
   * Feeds bytes; returns the complete bodies they finished as bytes, undecoded: for a relay that
   * passes bodies on as they are (a body that fits in one chunk is a view of it, not a copy).
   */
  pushBytes(chunk: Uint8Array): Uint8Array[] {
    if (this.failed) throw this.failed;
    try {
      return this.drain(chunk);
    } catch (err) {
      if (err instanceof FramingError) {
        this.failed = err;
        this.chunks = [];
        this.buffered = 0;
      }
      throw err;
    }
  }

  private drain(chunk: Uint8Array): Uint8Array[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const out: Uint8Array[] = [];
    for (;;) {
      if (this.bodyLength === undefined) {
        if (!this.readHeaders()) break;
      }
      const length = this.bodyLength as number;
      if (this.buffered < length) break;
      const body = this.take(length);
      this.bodyLength = undefined;
      this.headerBytes = 0;
      out.push(body);
    }
    return out;
  }

  /** Reads header lines until the blank line; returns false when more bytes are needed. */
  private readHeaders(): boolean {
    for (;;) {
      const lineEnd = this.indexOfCrLf();
      if (lineEnd < 0) {
        // No full line yet: the pending partial line still counts against both header limits.
        if (this.buffered > this.limits.maxHeaderLineBytes) throw new FramingError('header_line_too_long', `more than ${this.limits.maxHeaderLineBytes} bytes without a line end`);
        if (this.headerBytes + this.buffered > this.limits.maxHeaderBytes) throw new FramingError('headers_too_long', `more than ${this.limits.maxHeaderBytes} header bytes`);
        return false;
      }
      if (lineEnd > this.limits.maxHeaderLineBytes) throw new FramingError('header_line_too_long', `a header line of ${lineEnd} bytes`);
      this.headerBytes += lineEnd + 2;
      if (this.headerBytes > this.limits.maxHeaderBytes) throw new FramingError('headers_too_long', `more than ${this.limits.maxHeaderBytes} header bytes`);
      const line = new TextDecoder('ascii').decode(this.take(lineEnd));
      this.take(2);
      if (line === '') {
        const length = this.pendingContentLength;
        this.pendingContentLength = undefined;
        if (length === undefined) throw new FramingError('bad_header', 'no Content-Length header');
        this.bodyLength = length;
        return true;
      }
      const colon = line.indexOf(':');
      if (colon <= 0) throw new FramingError('bad_header', 'a header line without a name');
      const name = line.slice(0, colon).trim().toLowerCase();
      if (name !== 'content-length') continue;
      const value = line.slice(colon + 1).trim();
      if (!/^\d{1,10}$/.test(value)) throw new FramingError('bad_content_length', `Content-Length ${JSON.stringify(value.slice(0, 32))}`);
      const length = Number(value);
      if (length > this.limits.maxBodyBytes) throw new FramingError('body_too_large', `a body of ${length} bytes exceeds ${this.limits.maxBodyBytes}`);
      this.pendingContentLength = length;
    }
  }

  private indexOfCrLf(): number {
    let offset = 0;
    let prev = -1;
    for (const c of this.chunks) {
      for (let i = 0; i < c.length; i++) {
        const b = c[i] as number;
        if (prev === CR && b === LF) return offset + i - 1;
        prev = b;
      }
      offset += c.length;
    }
    return -1;
  }

  private take(n: number): Uint8Array {
    const head = this.chunks[0];
    if (head !== undefined && head.length >= n) {
      // The common case, a frame within one chunk: a view, no copy.
      this.chunks[0] = head.subarray(n);
      if (this.chunks[0].length === 0) this.chunks.shift();
      this.buffered -= n;
      return head.subarray(0, n);
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0] as Uint8Array;
      const need = n - filled;
      if (head.length <= need) {
        out.set(head, filled);
        filled += head.length;
        this.chunks.shift();
      } else {
        out.set(head.subarray(0, need), filled);
        this.chunks[0] = head.subarray(need);
        filled += need;
      }
    }
    this.buffered -= n;
    return out;
  }
}

/** Encodes one message body for a server's stdin. Throws FramingError beyond the body bound. */
export function encodeLspFrame(body: string, maxBodyBytes = LSP_MAX_BODY_BYTES): Uint8Array {
  const bytes = new TextEncoder().encode(body);
  if (bytes.length > maxBodyBytes) throw new FramingError('body_too_large', `a body of ${bytes.length} bytes exceeds ${maxBodyBytes}`);
  const header = new TextEncoder().encode(`Content-Length: ${bytes.length}\r\n\r\n`);
  const out = new Uint8Array(header.length + bytes.length);
  out.set(header, 0);
  out.set(bytes, header.length);
  return out;
}

/** Frames a body that is already UTF-8 bytes (a relay's), without decoding or re-encoding it. */
export function encodeLspFrameBytes(body: Uint8Array, maxBodyBytes = LSP_MAX_BODY_BYTES): Uint8Array {
  if (body.length > maxBodyBytes) throw new FramingError('body_too_large', `a body of ${body.length} bytes exceeds ${maxBodyBytes}`);
  const header = new TextEncoder().encode(`Content-Length: ${body.length}\r\n\r\n`);
  const out = new Uint8Array(header.length + body.length);
  out.set(header, 0);
  out.set(body, header.length);
  return out;
}

/** UTF-8 byte length of a WebSocket text frame, for the same body bound on the WebSocket hop. */
export function utf8ByteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
