import { TRUST_WORKSPACE_TOOLS_PARAM } from './api.js';
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
  /** POST {"operations": [...]}: a WorkspaceEdit on files that are not open, all or nothing. */
  filesApply: '/api/v1/files/apply',
  /** GET ?q=TEXT (SEARCH_QUERY_PARAMS): workspace search, `stream=1` for NDJSON lines. */
  search: '/api/v1/search',
  /** WebSocket upgrade ?language=L&autoInstall=true|false&trustWorkspaceTools=true|false: one language server stream. */
  lspStream: '/api/v1/lsp/stream',
  /** WebSocket upgrade: the workspace's live events (workspaceEvents.ts), paths and git state. */
  workspaceEvents: '/api/v1/workspace/events',
  /** GET ?path=FILE: the file's text at HEAD (GitHeadResponse), 404 when HEAD has no such file. */
  gitHead: '/api/v1/git/head',
} as const;

export interface LspStreamParams {
  language: LanguageId;
  autoInstall: boolean;
  /** The task's workspace-trust choice; absent is sent as false (the trust guards run). */
  trustWorkspaceTools?: boolean;
}

/**
 * The LSP stream path with its query, e.g.
 * `/api/v1/lsp/stream?language=go&autoInstall=false&trustWorkspaceTools=false`.
 */
export function lspStreamPath(params: LspStreamParams): string {
  const query = new URLSearchParams({
    language: params.language,
    autoInstall: String(params.autoInstall),
    [TRUST_WORKSPACE_TOOLS_PARAM]: String(params.trustWorkspaceTools === true),
  });
  return `${TASK_HOST_PATHS.lspStream}?${query.toString()}`;
}

/** A files-API path with the query string the browser sent (`''` or `?...`), forwarded as is. */
export function taskHostFilesPath(route: 'files' | 'file' | 'filesApply' | 'search' | 'gitHead', search: string): string {
  return `${TASK_HOST_PATHS[route]}${search}`;
}
