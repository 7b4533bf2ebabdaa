import { LSP_MAX_BODY_BYTES, LSP_MAX_HEADER_BYTES, LSP_MAX_HEADER_LINE_BYTES } from './bounds.js';

export type FramingErrorCode = 'header_line_too_long' | 'headers_too_long' | 'body_too_large' | 'bad_content_length' | 'bad_header';

export class FramingError extends Error {
  constructor(
    readonly code: FramingErrorCode,
    detail: string,
  ) {
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
/** One for every header line of every frame: a decoder per line cost more than the line. */
const asciiDecoder = new TextDecoder('ascii');
const utf8Encoder = new TextEncoder();
const LF = 10;

/** A header line's text. Short ASCII lines (every real header) are read without a decoder call. */
function headerLine(bytes: Uint8Array): string {
  if (bytes.length <= 128) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) if ((bytes[i] as number) >= 0x80) ascii = false;
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  return asciiDecoder.decode(bytes);
}

/**
 * Decodes the LSP base protocol (`Content-Length: N\r\n\r\n<N bytes>`) from a byte stream.
 * Bounded by design: a header line, the header block and a body each have a limit, and a body is
 * refused from its declared length alone, before a byte of it is buffered. After an error the
 * decoder stays failed; the caller closes that connection.
 */
export class LspFrameDecoder {
  private chunks: Uint8Array[] = [];
  /** Bytes of `chunks[0]` already consumed: read past by offset instead of a new view per step. */
  private offset = 0;
  /** Bytes not consumed yet, across the chunks. */
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
        this.offset = 0;
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
        if (this.buffered > this.limits.maxHeaderLineBytes)
          throw new FramingError('header_line_too_long', `more than ${this.limits.maxHeaderLineBytes} bytes without a line end`);
        if (this.headerBytes + this.buffered > this.limits.maxHeaderBytes)
          throw new FramingError('headers_too_long', `more than ${this.limits.maxHeaderBytes} header bytes`);
        return false;
      }
      if (lineEnd > this.limits.maxHeaderLineBytes) throw new FramingError('header_line_too_long', `a header line of ${lineEnd} bytes`);
      this.headerBytes += lineEnd + 2;
      if (this.headerBytes > this.limits.maxHeaderBytes) throw new FramingError('headers_too_long', `more than ${this.limits.maxHeaderBytes} header bytes`);
      const line = lineEnd === 0 ? '' : headerLine(this.take(lineEnd));
      this.skip(2);
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

  /** Offset, from the first unconsumed byte, of the first CR LF; -1 when none is buffered yet. */
  private indexOfCrLf(): number {
    const first = this.chunks[0];
    if (first === undefined) return -1;
    // The common case: the line end is in the first chunk, found natively (LF, then its CR).
    for (let lf = first.indexOf(LF, this.offset + 1); lf >= 0; lf = first.indexOf(LF, lf + 1)) {
      if (first[lf - 1] === CR) return lf - 1 - this.offset;
    }
    if (this.chunks.length === 1) return -1;
    let offset = 0;
    let prev = -1;
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k] as Uint8Array;
      const from = k === 0 ? this.offset : 0;
      for (let i = from; i < c.length; i++) {
        const b = c[i] as number;
        if (prev === CR && b === LF) return offset + i - from - 1;
        prev = b;
      }
      offset += c.length - from;
    }
    return -1;
  }

  /** Consumes `n` buffered bytes (n <= buffered). */
  private skip(n: number): void {
    this.buffered -= n;
    let left = n;
    while (left > 0) {
      const head = this.chunks[0] as Uint8Array;
      const available = head.length - this.offset;
      if (available > left) {
        this.offset += left;
        return;
      }
      left -= available;
      this.chunks.shift();
      this.offset = 0;
    }
  }

  private take(n: number): Uint8Array {
    const head = this.chunks[0];
    if (head !== undefined && head.length - this.offset >= n) {
      // The common case, a frame within one chunk: a view, no copy.
      const view = head.subarray(this.offset, this.offset + n);
      this.skip(n);
      return view;
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const head = this.chunks[0] as Uint8Array;
      const part = head.subarray(this.offset, this.offset + Math.min(n - filled, head.length - this.offset));
      out.set(part, filled);
      filled += part.length;
      this.skip(part.length);
    }
    return out;
  }
}

/** Encodes one message body for a server's stdin. Throws FramingError beyond the body bound. */
export function encodeLspFrame(body: string, maxBodyBytes = LSP_MAX_BODY_BYTES): Uint8Array {
  const bytes = utf8Encoder.encode(body);
  if (bytes.length > maxBodyBytes) throw new FramingError('body_too_large', `a body of ${bytes.length} bytes exceeds ${maxBodyBytes}`);
  const header = utf8Encoder.encode(`Content-Length: ${bytes.length}\r\n\r\n`);
  const out = new Uint8Array(header.length + bytes.length);
  out.set(header, 0);
  out.set(bytes, header.length);
  return out;
}

/**
 * The header of a frame whose body is `bodyBytes` long, for a relay that writes header and body
 * separately (no copy of the body). Throws FramingError beyond the body bound.
 */
export function lspFrameHeader(bodyBytes: number, maxBodyBytes = LSP_MAX_BODY_BYTES): Uint8Array {
  if (bodyBytes > maxBodyBytes) throw new FramingError('body_too_large', `a body of ${bodyBytes} bytes exceeds ${maxBodyBytes}`);
  return utf8Encoder.encode(`Content-Length: ${bodyBytes}\r\n\r\n`);
}

/** Frames a body that is already UTF-8 bytes (a relay's), without decoding or re-encoding it. */
export function encodeLspFrameBytes(body: Uint8Array, maxBodyBytes = LSP_MAX_BODY_BYTES): Uint8Array {
  const header = lspFrameHeader(body.length, maxBodyBytes);
  const out = new Uint8Array(header.length + body.length);
  out.set(header, 0);
  out.set(body, header.length);
  return out;
}

/** UTF-8 byte length of a WebSocket text frame, for the same body bound on the WebSocket hop. */
export function utf8ByteLength(text: string): number {
  return utf8Encoder.encode(text).length;
}
