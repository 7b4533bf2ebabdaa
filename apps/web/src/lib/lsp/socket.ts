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
export function lspSocketUrl(origin: PageOrigin, sessionId: string, language: string, leaseHint?: string): string {
  return pageSocketUrl(origin, lspSocketPath(sessionId, language, leaseHint));
}

type PageOrigin = { protocol: string; host: string };

/** A WebSocket URL for a path on the page's own origin (wss: on an https: page). */
export function pageSocketUrl(origin: PageOrigin, path: string): string {
  return `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}${path}`;
}

/** A browser WebSocket seen through SocketLike (its handler properties are assigned, not added). */
export function openBrowserSocket(url: string): SocketLike {
  return new WebSocket(url) as unknown as SocketLike;
}
