import { RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '@kandev/protocol';
import type { Disposable } from '@kandev/kit';

/** JSON-RPC 2.0 error codes used by LSP: packages/protocol's RpcErrorCode, under the client's name. */
export const ErrorCodes = RpcErrorCode;
export type { JsonRpcId, JsonRpcMessage };

/** An error answer: from the peer (a response's `error`), or ours to send back to it. */
export class ResponseError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ResponseError';
  }
}

/** Rejects requests still pending when their endpoint (one connection generation) ends. */
export class EndpointClosedError extends Error {
  constructor() {
    super('the language server connection ended');
    this.name = 'EndpointClosedError';
  }
}

/** Rejects a request the caller cancelled; its late response is dropped. */
export class RequestCancelledError extends Error {
  constructor() {
    super('request cancelled');
    this.name = 'RequestCancelledError';
  }
}

/** What a Monaco CancellationToken offers; kept structural so tests need no Monaco. */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): Disposable | { dispose(): void };
}

export interface JsonRpcHandlers {
  /** Answers a request from the server. Throw ResponseError to answer with that error. */
  onRequest(method: string, params: unknown): unknown;
  onNotification(method: string, params: unknown): void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  cancel?: { dispose(): void };
}

/**
 * One JSON-RPC peer over a message channel: request ids, the pending map, notifications and
 * server requests. Every server request gets an answer: a result, an error, or MethodNotFound.
 */
export class JsonRpcEndpoint implements Disposable {
  private nextId = 1;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private closed = false;

  constructor(
    private readonly send: (message: JsonRpcMessage) => void,
    private readonly handlers: JsonRpcHandlers,
  ) {}

  get pendingCount(): number {
    return this.pending.size;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  request<R>(method: string, params: unknown, token?: CancellationLike): Promise<R> {
    if (this.closed) return Promise.reject(new EndpointClosedError());
    if (token?.isCancellationRequested) return Promise.reject(new RequestCancelledError());
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const entry: Pending = { method, resolve: resolve as (v: unknown) => void, reject };
      this.pending.set(id, entry);
      if (token) {
        entry.cancel = token.onCancellationRequested(() => {
          if (!this.pending.delete(id)) return;
          this.trySend({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
          reject(new RequestCancelledError());
        });
      }
      const message: JsonRpcMessage = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      if (!this.trySend(message)) {
        this.pending.delete(id);
        entry.cancel?.dispose();
        reject(new EndpointClosedError());
      }
    });
  }

  notify(method: string, params?: unknown): void {
    if (this.closed) return;
    const message: JsonRpcMessage = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.trySend(message);
  }

  /** Feeds one message from the peer. */
  handle(message: JsonRpcMessage): void {
    if (this.closed) return;
    const method = typeof message.method === 'string' ? message.method : undefined;
    const hasId = typeof message.id === 'number' || typeof message.id === 'string';
    if (method !== undefined && hasId) {
      void this.answer(message.id as JsonRpcId, method, message.params);
    } else if (method !== undefined) {
      try {
        this.handlers.onNotification(method, message.params);
      } catch {
        // A notification handler failure must not break the stream; there is nobody to answer.
      }
    } else if (hasId) {
      this.settle(message.id as JsonRpcId, message);
    }
  }

  private settle(id: JsonRpcId, message: JsonRpcMessage): void {
    const entry = this.pending.get(id);
    if (!entry) return; // cancelled, or a stray reply: dropped
    this.pending.delete(id);
    entry.cancel?.dispose();
    if ('error' in message && message.error !== undefined && message.error !== null) {
      entry.reject(toResponseError(message.error));
    } else {
      entry.resolve(message.result ?? null);
    }
  }

  private async answer(id: JsonRpcId, method: string, params: unknown): Promise<void> {
    let reply: JsonRpcMessage;
    try {
      const result = await this.handlers.onRequest(method, params);
      reply = { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (err) {
      const error = err instanceof ResponseError ? err : new ResponseError(ErrorCodes.InternalError, 'internal error');
      const body: Record<string, unknown> = { code: error.code, message: error.message };
      if (error.data !== undefined) body.data = error.data;
      reply = { jsonrpc: '2.0', id, error: body };
    }
    if (!this.closed) this.trySend(reply);
  }

  private trySend(message: JsonRpcMessage): boolean {
    try {
      this.send(message);
      return true;
    } catch {
      return false;
    }
  }

  /** Ends this endpoint: pending requests reject, later messages and replies are dropped. */
  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) {
      entry.cancel?.dispose();
      entry.reject(new EndpointClosedError());
    }
  }
}

/** Turns a response's `error` member into a ResponseError whose message is always a string. */
export function toResponseError(error: unknown): ResponseError {
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    const code = typeof e.code === 'number' ? e.code : ErrorCodes.InternalError;
    const message = typeof e.message === 'string' ? e.message : '';
    return new ResponseError(code, message, e.data);
  }
  return new ResponseError(ErrorCodes.InternalError, typeof error === 'string' ? error : '');
}
