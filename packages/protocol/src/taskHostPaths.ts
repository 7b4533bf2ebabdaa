import type { LanguageId } from './languages.js';

/**
 * The task host's (agentctl's) HTTP and WebSocket paths (docs/internals.md, "agentctl API"). agentctl
 * routes on them and the backend calls them; both import them from here.
 */
export const TASK_HOST_PATHS = {
  health: '/api/v1/health',
  /** GET ?path=DIR: one folder's entries. */
  files: '/api/v1/files',
  /** GET ?path=FILE reads, PUT ?path=FILE with a WriteFileRequest body writes. */
  file: '/api/v1/file',
  /** GET ?q=TEXT: workspace search. */
  search: '/api/v1/search',
  /** WebSocket upgrade ?language=L&autoInstall=true|false: one language server stream. */
  lspStream: '/api/v1/lsp/stream',
} as const;

export interface LspStreamParams {
  language: LanguageId;
  autoInstall: boolean;
}

/** The LSP stream path with its query, e.g. `/api/v1/lsp/stream?language=go&autoInstall=false`. */
export function lspStreamPath(params: LspStreamParams): string {
  const query = new URLSearchParams({ language: params.language, autoInstall: String(params.autoInstall) });
  return `${TASK_HOST_PATHS.lspStream}?${query.toString()}`;
}

/** A files-API path with the query string the browser sent (`''` or `?...`), forwarded as is. */
export function taskHostFilesPath(route: 'files' | 'file' | 'search', search: string): string {
  return `${TASK_HOST_PATHS[route]}${search}`;
}
