/** JSON-RPC 2.0 shapes the broker reads and writes. Pure functions, no LSP semantics. */
import { isJsonRpcId, isRecord, type JsonRpcId, type JsonRpcMessage } from '@kandev/protocol';

export { isJsonRpcId };

export type ClassifiedMessage =
  | { kind: 'request'; id: JsonRpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response'; id: JsonRpcId; ok: boolean }
  | { kind: 'malformed'; id: JsonRpcId | undefined };

/** Request, notification or response; anything else is malformed (answered or dropped by the caller). */
export function classify(message: JsonRpcMessage): ClassifiedMessage {
  const { id, method } = message;
  const usableId = isJsonRpcId(id) ? id : undefined;
  if (typeof method === 'string') {
    if (!('id' in message)) return { kind: 'notification', method, params: message.params };
    if (usableId === undefined) return { kind: 'malformed', id: undefined };
    return { kind: 'request', id: usableId, method, params: message.params };
  }
  if (usableId !== undefined && ('result' in message || isRecord(message.error))) {
    return { kind: 'response', id: usableId, ok: !('error' in message) };
  }
  return { kind: 'malformed', id: usableId };
}

export function request(id: JsonRpcId, method: string, params?: unknown): JsonRpcMessage {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export function notification(method: string, params?: unknown): JsonRpcMessage {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function resultResponse(id: JsonRpcId, result: unknown): JsonRpcMessage {
  return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcMessage {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** The same response (result or error) under another id. */
export function withId(message: JsonRpcMessage, id: JsonRpcId): JsonRpcMessage {
  return { ...message, id };
}

/** A map key that keeps `1` and `"1"` apart. */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

/** UTF-8 byte length of a string, without Buffer or TextEncoder. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes of a JSON-RPC id: a string's UTF-8 length, a number's decimal spelling. */
export function idBytes(id: JsonRpcId): number {
  return utf8Length(typeof id === 'string' ? id : String(id));
}

/** Serialized size of a retained value, in UTF-8 bytes (undefined counts as 0). */
export function jsonBytes(value: unknown): number {
  if (value === undefined) return 0;
  return utf8Length(JSON.stringify(value) ?? '');
}

/** JSON with object keys sorted, so two equal settings objects compare equal as strings. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
