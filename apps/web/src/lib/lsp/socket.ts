import { lspSocketPath } from '@kandev/protocol';

/** The part of a browser WebSocket an LSP attachment uses; tests pass a fake. */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;

/** `/lsp/:sessionId?language=L[&lease=ID]` on the page's own origin (packages/protocol routes.ts). */
export function lspSocketUrl(origin: { protocol: string; host: string }, sessionId: string, language: string, leaseHint?: string): string {
  const scheme = origin.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${origin.host}${lspSocketPath(sessionId, language, leaseHint)}`;
}

/** A browser WebSocket seen through SocketLike (its handler properties are assigned, not added). */
export function openBrowserSocket(url: string): SocketLike {
  return new WebSocket(url) as unknown as SocketLike;
}
