import { spliceId } from './envelope.js';

/**
 * A message a hop received and passes on: its text and, when the hop kept them, the UTF-8 bytes it
 * arrived as (`bytes` must encode exactly `text`: a WebSocket text frame's payload, which ws has
 * already checked is valid UTF-8).
 */
export interface ReceivedText {
  text: string;
  bytes?: Uint8Array;
}

/**
 * A message as a hop passes it on: its text (what anything that reads the message uses) and, when
 * the original bytes were kept, the same message as UTF-8 pieces that a socket writes as they are,
 * one after another (`wire`). Writing the pieces spares the hop a decode and an encode of the whole
 * message; for a large one (a file's text, a big result) each of those is a fresh allocation
 * as large as the message, which is where a relay's time goes.
 */
export interface OutgoingText {
  text: string;
  wire?: readonly Uint8Array[];
}

/**
 * Above this many bytes a message with a spliced id is written as pieces of its original bytes
 * (the head up to the new id, then a view of the rest): below it, one joined copy costs less than
 * a frame per piece.
 */
export const JOIN_PIECES_BELOW_BYTES = 64 * 1024;

const utf8 = new TextEncoder();

/** UTF-8 bytes of `text[from, to)`; a lone surrogate counts 3 bytes, as its replacement character. */
function utf8Bytes(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Where a span of `text` sits in its UTF-8 `bytes`. Equal lengths mean every character is one
 * byte (ASCII, the common case): the offsets are the same. Otherwise the shorter side of the text
 * is counted (the id is usually near the start, but a server may put it after a long result).
 */
function byteSpan(text: string, bytes: Uint8Array, span: readonly [number, number]): [number, number] {
  if (bytes.length === text.length) return [span[0], span[1]];
  const idBytes = utf8Bytes(text, span[0], span[1]);
  if (span[0] <= text.length - span[1]) {
    const start = utf8Bytes(text, 0, span[0]);
    return [start, start + idBytes];
  }
  const end = bytes.length - utf8Bytes(text, span[1], text.length);
  return [end - idBytes, end];
}

function joined(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The message passed on unchanged: its own bytes, when kept. */
export function relayedAsIs(received: ReceivedText): OutgoingText {
  return received.bytes ? { text: received.text, wire: [received.bytes] } : { text: received.text };
}

/**
 * The message passed on with its top-level id replaced (`span` from a scan of this exact text).
 * The text is spliced as `spliceId` does (no copy until something reads it); the bytes are split
 * around the id, so a large message goes out without being joined again.
 */
export function relayedWithId(received: ReceivedText, span: readonly [number, number], id: string | number): OutgoingText {
  const text = spliceId(received.text, span, id);
  const bytes = received.bytes;
  if (!bytes) return { text };
  const [start, end] = byteSpan(received.text, bytes, span);
  const head = bytes.subarray(0, start);
  const newId = utf8.encode(JSON.stringify(id));
  const tail = bytes.subarray(end);
  if (bytes.length < JOIN_PIECES_BELOW_BYTES) return { text, wire: [joined([head, newId, tail])] };
  // The head is usually a few dozen bytes (`{"jsonrpc":"2.0","id":`): joined with the id, it makes one small piece.
  const pieces = head.length < JOIN_PIECES_BELOW_BYTES ? [joined([head, newId]), tail] : [head, newId, tail];
  return { text, wire: pieces.filter((piece) => piece.length > 0) };
}
