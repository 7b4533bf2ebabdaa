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

const WANTED: Record<string, keyof TopLevelMembers> = { '"id"': 'id', '"method"': 'method', '"jsonrpc"': 'jsonrpc' };
const PRESENCE: Record<string, 'hasResult' | 'hasError' | 'hasId'> = { '"result"': 'hasResult', '"error"': 'hasError', '"id"': 'hasId' };
/** A primitive longer than this is no usable id or method; it is not captured. */
const MAX_CAPTURE_CHARS = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
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
  const scan: NestingScan = { tooDeep: false, top: {}, hasResult: false, hasError: false, hasId: false, ambiguousKeys: false, balancedObject: false };
  const top = scan.top;
  let depth = 0;
  let unterminated = false;
  let trailing = false;
  let closedTop = false;
  // Top-level object member being read: key, then value span (only at depth 1).
  let topIsObject = false;
  let expectKey = false;
  let key: string | undefined;
  let afterColon = false;
  let valueStart = -1;
  let valueComposite = false;
  const seen = new Set<string>();

  const endMember = (end: number): void => {
    const slot = key === undefined ? undefined : WANTED[key];
    if (slot && valueStart >= 0 && !valueComposite && end - valueStart <= MAX_CAPTURE_CHARS) {
      let valueEnd = end;
      while (valueEnd > valueStart && isSpace(text.charCodeAt(valueEnd - 1))) valueEnd--;
      top[slot] = text.slice(valueStart, valueEnd);
      if (slot === 'id') scan.idSpan = [valueStart, valueEnd];
    } else if (slot) {
      // A repeated member wins like in JSON.parse (the last one): an uncapturable last value
      // must not leave an earlier one standing.
      delete top[slot];
      if (slot === 'id') delete scan.idSpan;
    }
    key = undefined;
    afterColon = false;
    valueStart = -1;
    valueComposite = false;
  };

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
          key = text.slice(i, end + 1);
          expectKey = false;
          if (key.includes('\\')) scan.ambiguousKeys = true;
          if (WANTED[key] !== undefined || PRESENCE[key] !== undefined) {
            if (seen.has(key)) scan.ambiguousKeys = true;
            seen.add(key);
          }
          const present = PRESENCE[key];
          if (present) scan[present] = true;
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
        if (depth > maxDepth) scan.tooDeep = true;
        if (depth === 1 && c === 0x7b && !topIsObject && !closedTop) {
          topIsObject = true;
          expectKey = true;
        }
        break;
      case 0x7d: // }
      case 0x5d: // ]
        if (atTop) endMember(i);
        if (depth > 0) depth--;
        if (depth === 0) closedTop = true;
        break;
      case 0x2c: // ,
        if (atTop) {
          endMember(i);
          expectKey = true;
        }
        break;
      case 0x3a: // :
        if (atTop) afterColon = true;
        break;
      default:
        if (atTop && afterColon && valueStart < 0) valueStart = i;
    }
  }
  scan.balancedObject = topIsObject && closedTop && depth === 0 && !unterminated && !trailing;
  return scan;
}
