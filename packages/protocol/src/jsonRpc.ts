import type { ErrorCodes } from 'vscode-languageserver-protocol';

/**
 * JSON-RPC 2.0 as both hops and the web client see it. The message types of
 * vscode-languageserver-protocol are re-exported for code that handles a message it has validated;
 * JsonRpcMessage is the loose shape of a message straight off the wire, before that.
 */
export type { Message, NotificationMessage, RequestMessage, ResponseMessage } from 'vscode-languageserver-protocol';

export type JsonRpcId = number | string;

/** A usable request id: a string or a finite number (null and anything else are not). */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}
export type JsonRpcMessage = Record<string, unknown> & { jsonrpc: '2.0' };

/**
 * The error codes of JSON-RPC and LSP that kandev sends or reads. The library's values are the
 * reference, but its runtime is CommonJS that would drag its connection code into the web bundle,
 * so they are written here: the JSON-RPC ones are tied to the library's literal types below, and
 * jsonRpc.test.ts compares every one with the library at run time.
 */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  /** LSP: a request failed though it was understood (e.g. the server went away). */
  RequestFailed: -32803,
  ServerCancelled: -32802,
  ContentModified: -32801,
  RequestCancelled: -32800,
} as const satisfies Pick<typeof ErrorCodes, 'ParseError' | 'InvalidRequest' | 'MethodNotFound' | 'InvalidParams' | 'InternalError' | 'ServerNotInitialized'> &
  Record<'RequestFailed' | 'ServerCancelled' | 'ContentModified' | 'RequestCancelled', number>;

/**
 * The `data` of the error the broker answers with when a server did not answer a browser request
 * within the request deadline (BROWSER_REQUEST_TIMEOUT_MS, or the backend's configured one). Its
 * code is RequestCancelled, which a server may also send on its own for work it dropped; this
 * member is what tells the browser that the deadline passed, and after how long.
 */
export interface RequestDeadlineData {
  requestDeadlineMs: number;
}

export function requestDeadlineData(deadlineMs: number): RequestDeadlineData {
  return { requestDeadlineMs: deadlineMs };
}

/** The deadline an error's `data` names, or undefined when the error is not the broker's deadline. */
export function requestDeadlineOf(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const ms = (data as Record<string, unknown>).requestDeadlineMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
