import type { NestingScan } from './jsonDepth.js';
import { isJsonRpcId } from './jsonRpc.js';

/**
 * The envelope of a JSON-RPC message read from its raw text (a scan), without decoding the body:
 * enough for a relay to route a message it only passes on, and to replace its id in place.
 */
export interface RpcEnvelope {
  /** The top-level id when it is a string or a finite number; absent for notifications. */
  id?: string | number;
  /** Where `id`'s text sits in the raw message (start, end exclusive). */
  idSpan?: readonly [number, number];
  /** True when the message has a top-level `id` member of any kind (usable or not). */
  hasIdMember: boolean;
  method?: string;
  /** Has a top-level `result` or `error`. */
  isResponse: boolean;
}

/** Matches JSON numbers that are plain integers: decoded without JSON.parse. */
const PLAIN_INTEGER = /^-?(0|[1-9]\d{0,14})$/;

function hasControlOrQuote(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22) return true;
  }
  return false;
}

/**
 * A captured primitive's value. The common spellings (a string without escapes, a plain integer)
 * are read directly: this runs for every relayed message, several times.
 */
export function decodePrimitive(raw: string | undefined): unknown {
  if (raw === undefined) return undefined;
  const last = raw.length - 1;
  if (last > 0 && raw.charCodeAt(0) === 0x22 && raw.charCodeAt(last) === 0x22 && !raw.includes('\\')) {
    const inner = raw.slice(1, last);
    // A control character or an unescaped quote makes it invalid JSON: the slow path says so.
    if (!hasControlOrQuote(inner)) return inner;
  }
  if (PLAIN_INTEGER.test(raw)) return Number(raw);
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * The envelope when the scan shows one balanced, shallow-enough object with `"jsonrpc":"2.0"`;
 * undefined otherwise (the caller decodes it the slow way, or refuses it). A composite or unusable
 * id, or a method that is not a string, leaves those fields out: the caller decodes such a message.
 */
export function readEnvelope(scan: NestingScan): RpcEnvelope | undefined {
  if (scan.tooDeep || !scan.balancedObject || scan.ambiguousKeys || decodePrimitive(scan.top.jsonrpc) !== '2.0') return undefined;
  const envelope: RpcEnvelope = { hasIdMember: scan.hasId, isResponse: scan.hasResult || scan.hasError };
  const id = decodePrimitive(scan.top.id);
  if (isJsonRpcId(id) && scan.idSpan) {
    envelope.id = id;
    envelope.idSpan = scan.idSpan;
  }
  const method = decodePrimitive(scan.top.method);
  if (typeof method === 'string') envelope.method = method;
  return envelope;
}

/**
 * The same message with its top-level id replaced: the text before and after the id's span is
 * kept byte for byte (ids inside params, whitespace, key order), so a relay pays one copy and no
 * decode/encode. `span` must come from a scan of this exact text.
 */
export function spliceId(text: string, span: readonly [number, number], id: string | number): string {
  return text.slice(0, span[0]) + JSON.stringify(id) + text.slice(span[1]);
}
