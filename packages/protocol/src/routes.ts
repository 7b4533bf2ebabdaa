/**
 * The backend's own HTTP paths and the browser's LSP socket path: the backend routes on them, the
 * web calls them, and nothing in an app spells one as a string (scripts/check-contract.mjs).
 * `:name` segments are filled by `apiPath`. The task host's paths are in taskHostPaths.ts.
 */
export const API_PREFIX = '/api';

export const API_ROUTES = {
  /** GET: `{"ok": true}`, without an access token (liveness probes). */
  health: '/api/health',
  /**
   * GET: `{"signedIn": true}` with the access token; 401 `unauthorized` without it, like every route.
   * A page asks it after a lost socket: a 401 there means its sign-in ended (the token changed).
   */
  access: '/api/access',
  /** GET: the language catalog cards of the Editors settings. */
  languages: '/api/languages',
  /** GET the user settings, PUT any subset of them. */
  settings: '/api/settings',
  /** GET every task with its sessions, POST a new task. */
  tasks: '/api/tasks',
  /** GET, PATCH (a TaskPatch) or DELETE one task. */
  task: '/api/tasks/:id',
  /** GET a task's sessions, POST to start one. */
  taskSessions: '/api/tasks/:id/sessions',
  /** GET one session. */
  session: '/api/sessions/:id',
  /** POST: stop the session and its task host. */
  sessionStop: '/api/sessions/:id/stop',
  /** GET ?path=DIR: one folder's entries (forwarded to the task host). */
  sessionFiles: '/api/sessions/:id/files',
  /** GET ?path=FILE reads, PUT ?path=FILE writes (forwarded to the task host). */
  sessionFile: '/api/sessions/:id/file',
  /** POST {"operations": [...]}: a WorkspaceEdit on files that are not open, all or nothing. */
  sessionFilesApply: '/api/sessions/:id/files/apply',
  /** GET ?q=TEXT: workspace search, `stream=1` for NDJSON lines. */
  sessionSearch: '/api/sessions/:id/search',
  /** WebSocket upgrade: the workspace's live events for the page (workspaceEvents.ts). */
  sessionEvents: '/api/sessions/:id/events',
  /**
   * POST: a new agent token for the running session, as the JSON an MCP client takes
   * (McpClientConfig, mcp.ts); 409 `session_not_running` once it ended. Access token required.
   */
  sessionMcpConfig: '/api/sessions/:id/mcp-config',
  /** GET: the language servers the session's agents hold (AgentLeasesResponse, mcp.ts). */
  sessionAgentLeases: '/api/sessions/:id/agent-leases',
  /** GET ?path=FILE: the file's text at HEAD (workspaceEvents.ts, GitHeadResponse). */
  sessionGitHead: '/api/sessions/:id/git/head',
} as const;

export type ApiRoute = keyof typeof API_ROUTES;

/** Prometheus text exposition of the backend (same access rule as the API). */
export const METRICS_PATH = '/metrics';

/**
 * The agents' MCP endpoint (Streamable HTTP: POST, GET and DELETE on one path). Only a session's
 * agent token (`Authorization: Bearer`) opens it; the access token is refused there (docs/agents.md).
 */
export const MCP_PATH = '/mcp';

/** WebSocket upgrade `/lsp/:sessionId?language=L[&lease=ID]` on the page's own origin. */
export const LSP_SOCKET_PATH = '/lsp';

/** The names of a pattern's `:name` segments, e.g. `'id'` for `/api/tasks/:id/sessions`. */
export type RouteParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | RouteParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<R extends ApiRoute> = Record<RouteParamNames<(typeof API_ROUTES)[R]>, string>;

/**
 * A route's path with its `:name` segments filled, each URI-encoded, and an optional query:
 * `apiPath('sessionFile', { id }, { path })` is `/api/sessions/<id>/file?path=...`.
 */
export function apiPath<R extends ApiRoute>(route: R, params: RouteParams<R>, query?: URLSearchParams | Record<string, string>): string {
  const values = params as Record<string, string>;
  const path = API_ROUTES[route].replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`apiPath: ${route} needs :${name}`);
    return encodeURIComponent(value);
  });
  if (query === undefined) return path;
  const search = (query instanceof URLSearchParams ? query : new URLSearchParams(query)).toString();
  return search === '' ? path : `${path}?${search}`;
}

/** The LSP socket's path and query for one session and language (the origin is the page's). */
export function lspSocketPath(sessionId: string, language: string, leaseHint?: string): string {
  const query = new URLSearchParams({ language });
  if (leaseHint) query.set('lease', leaseHint);
  return `${LSP_SOCKET_PATH}/${encodeURIComponent(sessionId)}?${query.toString()}`;
}

/** The (still encoded) session segment of an LSP socket path, or undefined for any other path. */
export function lspSocketSessionSegment(pathname: string): string | undefined {
  const prefix = `${LSP_SOCKET_PATH}/`;
  if (!pathname.startsWith(prefix)) return undefined;
  const rest = pathname.slice(prefix.length).replace(/\/$/, '');
  return rest === '' || rest.includes('/') ? undefined : rest;
}
