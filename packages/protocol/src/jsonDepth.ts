import { MAX_JSON_DEPTH } from './bounds.js';

/** Top-level members a refusal needs (a request's id, whether it is one), as raw JSON text. */
export interface TopLevelMembers {
  id?: string;
  method?: string;
  jsonrpc?: string;
}

export interface NestingScan {
  /** True when arrays/objects nest deeper than the bound somewhere in the text. */
  tooDeep: boolean;
  /** Raw text of the top-level `id`, `method` and `jsonrpc` members when they are primitives. */
  top: TopLevelMembers;
  /**
   * Where the top-level `id` value's text starts and ends (exclusive), when `top.id` was captured:
   * lets a relay replace the id in the original text instead of decoding and re-encoding it.
   */
  idSpan?: readonly [number, number];
  /** Top-level `result` / `error` members are present (of any type): the message is a response. */
  hasResult: boolean;
  hasError: boolean;
  /** A top-level `id` member is present, whatever its value. */
  hasId: boolean;
  /**
   * A top-level key is spelled with an escape (`"\u0069d"` is `"id"` to JSON.parse), or one of the
   * keys above repeats (parsers disagree on which one wins): the members above may then disagree
   * with what a decoder reads, so nothing may be routed or spliced from them.
   */
  ambiguousKeys: boolean;
  /**
   * The text is one object whose brackets and strings balance, with nothing but whitespace after
   * it. Structure only, not a JSON validation: what a hop that relays bytes it does not decode checks.
   */
  balancedObject: boolean;
}

/**
 * Top-level keys the scan tracks, by their exact raw spelling (quotes included): a key spelled any
 * other way (an escape) is none of them to the scan, and marks the scan ambiguous.
 */
const KEY_OTHER = 0;
const KEY_ID = 1;
const KEY_METHOD = 2;
const KEY_JSONRPC = 3;
const KEY_RESULT = 4;
const KEY_ERROR = 5;
/** A primitive longer than this is no usable id or method; it is not captured. */
const MAX_CAPTURE_CHARS = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Which tracked key the string from `open` to `close` (its quotes) spells, without slicing it. */
function keyAt(text: string, open: number, close: number): number {
  switch (close - open + 1) {
    case 4:
      return text.startsWith('"id"', open) ? KEY_ID : KEY_OTHER;
    case 7:
      return text.startsWith('"error"', open) ? KEY_ERROR : KEY_OTHER;
    case 8:
      return text.startsWith('"method"', open) ? KEY_METHOD : text.startsWith('"result"', open) ? KEY_RESULT : KEY_OTHER;
    case 9:
      return text.startsWith('"jsonrpc"', open) ? KEY_JSONRPC : KEY_OTHER;
    default:
      return KEY_OTHER;
  }
}

function hasBackslash(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === BACKSLASH) return true;
  return false;
}

/**
 * Where a top-level member's value ends once trailing space is left out, when it is a primitive
 * short enough to capture; -1 otherwise (a repeated member wins like in JSON.parse, the last one:
 * an uncapturable last value must not leave an earlier one standing).
 */
function capturedEnd(text: string, valueStart: number, valueComposite: boolean, end: number): number {
  if (valueStart < 0 || valueComposite || end - valueStart > MAX_CAPTURE_CHARS) return -1;
  let valueEnd = end;
  while (valueEnd > valueStart && isSpace(text.charCodeAt(valueEnd - 1))) valueEnd--;
  return valueEnd;
}

/** Index of the quote closing the string whose opening quote is at `open`; -1 when unterminated. */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    // indexOf runs natively: long strings (file contents, hover markdown) are the bulk of LSP traffic.
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * One pass over the raw text, with a counter instead of recursion, so any input is measured in
 * constant stack. It does not validate JSON (JSON.parse does that where a message is decoded); it
 * only tracks strings (so brackets inside them do not count), and remembers the top-level members
 * a hop needs to route a message without decoding it: the primitive `id` (with its position),
 * `method`, `jsonrpc`, and whether `result` or `error` are present.
 */
export function scanJsonNesting(text: string, maxDepth = MAX_JSON_DEPTH): NestingScan {
  // Every bit of state is a local (no closure, no per-key strings): this runs on every message
  // every hop relays, so it must cost about what skipping the strings costs.
  let tooDeep = false;
  let hasResult = false;
  let hasError = false;
  let hasId = false;
  let ambiguousKeys = false;
  let depth = 0;
  let unterminated = false;
  let trailing = false;
  let closedTop = false;
  // Top-level object member being read: key, then value span (only at depth 1).
  let topIsObject = false;
  let expectKey = false;
  let key = KEY_OTHER;
  let afterColon = false;
  let valueStart = -1;
  let valueComposite = false;
  /** Tracked keys seen so far, one bit per key. */
  let seen = 0;
  let idStart = -1;
  let idEnd = -1;
  let methodStart = -1;
  let methodEnd = -1;
  let jsonrpcStart = -1;
  let jsonrpcEnd = -1;

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) continue;
    if (closedTop) trailing = true;
    const atTop = topIsObject && depth === 1;
    switch (c) {
      case QUOTE: {
        const end = stringEnd(text, i);
        if (end < 0) {
          unterminated = true;
          i = text.length;
          break;
        }
        if (atTop && expectKey) {
          key = keyAt(text, i, end);
          expectKey = false;
          if (hasBackslash(text, i + 1, end)) ambiguousKeys = true;
          if (key !== KEY_OTHER) {
            if ((seen & (1 << key)) !== 0) ambiguousKeys = true;
            seen |= 1 << key;
            if (key === KEY_ID) hasId = true;
            else if (key === KEY_RESULT) hasResult = true;
            else if (key === KEY_ERROR) hasError = true;
          }
        } else if (atTop && afterColon && valueStart < 0) valueStart = i;
        i = end;
        break;
      }
      case 0x7b: // {
      case 0x5b: // [
        if (atTop && afterColon) {
          if (valueStart < 0) valueStart = i;
          valueComposite = true;
        }
        depth++;
        if (depth > maxDepth) tooDeep = true;
        if (depth === 1 && c === 0x7b && !topIsObject && !closedTop) {
          topIsObject = true;
          expectKey = true;
        }
        break;
      case 0x7d: // }
      case 0x5d: // ]
      case 0x2c: // ,
        if (atTop) {
          // The member ends: its value is captured when it is one of the tracked primitives.
          if (key === KEY_ID || key === KEY_METHOD || key === KEY_JSONRPC) {
            const valueEnd = capturedEnd(text, valueStart, valueComposite, i);
            const start = valueEnd < 0 ? -1 : valueStart;
            if (key === KEY_ID) {
              idStart = start;
              idEnd = valueEnd;
            } else if (key === KEY_METHOD) {
              methodStart = start;
              methodEnd = valueEnd;
            } else {
              jsonrpcStart = start;
              jsonrpcEnd = valueEnd;
            }
          }
          key = KEY_OTHER;
          afterColon = false;
          valueStart = -1;
          valueComposite = false;
          if (c === 0x2c) expectKey = true;
        }
        if (c === 0x2c) break;
        if (depth > 0) depth--;
        if (depth === 0) closedTop = true;
        break;
      case 0x3a: // :
        if (atTop) afterColon = true;
        break;
      default:
        if (atTop && afterColon && valueStart < 0) valueStart = i;
    }
  }
  const top: TopLevelMembers = {};
  if (idStart >= 0) top.id = text.slice(idStart, idEnd);
  if (methodStart >= 0) top.method = text.slice(methodStart, methodEnd);
  if (jsonrpcStart >= 0) top.jsonrpc = text.slice(jsonrpcStart, jsonrpcEnd);
  const balancedObject = topIsObject && closedTop && depth === 0 && !unterminated && !trailing;
  const scan: NestingScan = { tooDeep, top, hasResult, hasError, hasId, ambiguousKeys, balancedObject };
  if (idStart >= 0) scan.idSpan = [idStart, idEnd];
  return scan;
}
