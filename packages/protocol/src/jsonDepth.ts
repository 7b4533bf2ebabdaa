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
}

const WANTED: Record<string, keyof TopLevelMembers> = { '"id"': 'id', '"method"': 'method', '"jsonrpc"': 'jsonrpc' };
/** A primitive longer than this is no usable id or method; it is not captured. */
const MAX_CAPTURE_CHARS = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * One pass over the raw text, with a counter instead of recursion, so any input is measured in
 * constant stack. It does not validate JSON (JSON.parse does that afterwards, on text already
 * known to be shallow enough); it only tracks strings (so brackets inside them do not count) and
 * remembers the primitive top-level members a JSON-RPC refusal needs, without parsing the rest.
 */
export function scanJsonNesting(text: string, maxDepth = MAX_JSON_DEPTH): NestingScan {
  const top: TopLevelMembers = {};
  let tooDeep = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  // Top-level object member being read: key span, then value span (only at depth 1).
  let topIsObject = false;
  let expectKey = false;
  let keyStart = -1;
  let key: string | undefined;
  let afterColon = false;
  let valueStart = -1;
  let valueComposite = false;

  const endMember = (end: number): void => {
    const slot = key === undefined ? undefined : WANTED[key];
    if (slot && valueStart >= 0 && !valueComposite && end - valueStart <= MAX_CAPTURE_CHARS) top[slot] = text.slice(valueStart, end).trim();
    key = undefined;
    afterColon = false;
    valueStart = -1;
    valueComposite = false;
  };

  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        inString = false;
        if (keyStart >= 0) {
          key = text.slice(keyStart, i + 1);
          keyStart = -1;
        }
      }
      continue;
    }
    if (isSpace(c)) continue;
    const atTop = topIsObject && depth === 1;
    switch (c) {
      case QUOTE:
        inString = true;
        if (atTop && expectKey) {
          keyStart = i;
          expectKey = false;
        } else if (atTop && afterColon && valueStart < 0) valueStart = i;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (atTop && afterColon) {
          if (valueStart < 0) valueStart = i;
          valueComposite = true;
        }
        depth++;
        if (depth > maxDepth) tooDeep = true;
        if (depth === 1 && c === 0x7b) {
          topIsObject = true;
          expectKey = true;
        }
        break;
      case 0x7d: // }
      case 0x5d: // ]
        if (atTop) endMember(i);
        if (depth > 0) depth--;
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
  return { tooDeep, top };
}
