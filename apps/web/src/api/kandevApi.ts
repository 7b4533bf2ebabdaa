import {
  apiPath,
  API_ROUTES,
  DEFAULT_SETTINGS,
  isRecord,
  type LanguageCatalogEntry,
  type ApiErrorCode,
  type ExecutorKind,
  type FileEntry,
  type ListFilesResponse,
  type ReadFileResponse,
  type SearchResponse,
  type SearchEngine,
  type SearchHit,
  type SearchOptions,
  type SearchStreamLine,
  searchParams,
  type Session,
  type Task,
  type TaskInvalid,
  type TaskPatch,
  type UserSettings,
  type WriteConflictResponse,
  type ApplyConflictResponse,
  type ApplyFilesResponse,
  type FileOperation,
  type WriteFileResponse,
  FILE_BYTES_CONTENT_TYPE,
  WRITE_BASE_VERSION_PARAM,
  type AgentLeasesResponse,
  type GitHeadResponse,
  sessionGitHeadPath,
  UNAUTHORIZED_STATUS,
} from '@kandev/protocol';
import type { AccessCheck } from '../lib/access/accessWatch.js';
import { NdjsonDecoder } from './ndjson.js';

/** A failed API call: the HTTP status and the API's error code when it sent one. Never shown raw. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | undefined,
    /** For a refused task: which field and why (the browser shows its own copy for it). */
    readonly invalid?: TaskInvalid,
    /** The session a refused start recorded (422 executor_unsupported answers with it, failed). */
    readonly session?: Session,
    /** 413 too_large: the most bytes the server takes (a file to open or save). */
    readonly limit?: number,
  ) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}`);
    this.name = 'ApiRequestError';
  }
}

/** A task as the list shows it; `sessions` is listed when the backend includes it. */
export type TaskSummary = Task & { sessions?: Session[] };

/** How a streamed search ended (a cancelled one rejects with an AbortError instead). */
export interface SearchEnd {
  truncated: boolean;
  engine: SearchEngine;
}

export interface NewTaskInput {
  title: string;
  executor: ExecutorKind;
  repositories: Array<{ path: string }>;
}

export type WriteOutcome = { ok: true; version: string } | { ok: false; conflict: true; currentVersion?: string };

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

async function errorOf(res: Response): Promise<ApiRequestError> {
  let code: ApiErrorCode | undefined;
  let invalid: TaskInvalid | undefined;
  let session: Session | undefined;
  let limit: number | undefined;
  try {
    const body = (await res.json()) as { error?: { code?: unknown }; invalid?: Partial<TaskInvalid>; session?: Partial<Session>; limit?: unknown };
    if (typeof body?.limit === 'number') limit = body.limit;
    if (typeof body?.session?.id === 'string' && typeof body.session.taskId === 'string') session = body.session as Session;
    if (typeof body?.error?.code === 'string') code = body.error.code as ApiErrorCode;
    if (typeof body?.invalid?.reason === 'string' && typeof body.invalid.field === 'string') {
      invalid = { field: body.invalid.field, reason: body.invalid.reason };
      if (typeof body.invalid.index === 'number') invalid.index = body.invalid.index;
    }
  } catch {
    // not JSON
  }
  return new ApiRequestError(res.status, code, invalid, session, limit);
}

/**
 * The backend's HTTP API (docs/architecture.md section 9), relative to the page's origin.
 * `onUnauthorized` hears every 401: the page's sign-in ended (lib/access/accessWatch.ts).
 */
export function createKandevApi(send: FetchLike = (input, init) => fetch(input, init), onUnauthorized?: () => void) {
  const fetchImpl: FetchLike = async (input, init) => {
    const res = await send(input, init);
    if (res.status === UNAUTHORIZED_STATUS) onUnauthorized?.();
    return res;
  };
  const json = async <T>(url: string, init?: RequestInit): Promise<T> => {
    const res = await fetchImpl(url, {
      ...init,
      headers: { Accept: 'application/json', ...(init?.body ? { 'Content-Type': 'application/json' } : {}), ...init?.headers },
    });
    if (!res.ok) throw await errorOf(res);
    return (await res.json()) as T;
  };

  return {
    /** Whether this page's sign-in is still valid; never throws (a backend that is down is `unreachable`). */
    async checkAccess(): Promise<AccessCheck> {
      try {
        const res = await fetchImpl(API_ROUTES.access, { headers: { Accept: 'application/json' }, cache: 'no-store' });
        if (res.ok) return 'ok';
        return res.status === UNAUTHORIZED_STATUS ? 'refused' : 'unreachable';
      } catch {
        return 'unreachable';
      }
    },
    async listTasks(): Promise<TaskSummary[]> {
      const body = await json<TaskSummary[] | { tasks?: TaskSummary[] }>(API_ROUTES.tasks);
      return Array.isArray(body) ? body : Array.isArray(body.tasks) ? body.tasks : [];
    },
    getTask(taskId: string): Promise<TaskSummary> {
      return json<TaskSummary>(apiPath('task', { id: taskId }));
    },
    createTask(input: NewTaskInput): Promise<Task> {
      return json<Task>(API_ROUTES.tasks, { method: 'POST', body: JSON.stringify(input) });
    },
    renameTask(taskId: string, title: string): Promise<TaskSummary> {
      return json<TaskSummary>(apiPath('task', { id: taskId }), { method: 'PATCH', body: JSON.stringify({ title } satisfies TaskPatch) });
    },
    /** Changes whether language servers may run the workspace's own tools (docs/workspace-trust.md). */
    setTaskTrust(taskId: string, trustWorkspaceTools: boolean): Promise<TaskSummary> {
      return json<TaskSummary>(apiPath('task', { id: taskId }), { method: 'PATCH', body: JSON.stringify({ trustWorkspaceTools } satisfies TaskPatch) });
    },
    /** Stops the task's live sessions first (server side), then deletes it with its history. */
    async deleteTask(taskId: string): Promise<void> {
      await json<unknown>(apiPath('task', { id: taskId }), { method: 'DELETE' });
    },
    getSession(sessionId: string): Promise<Session> {
      return json<Session>(apiPath('session', { id: sessionId }));
    },
    startSession(taskId: string): Promise<Session> {
      return json<Session>(apiPath('taskSessions', { id: taskId }), { method: 'POST', body: '{}' });
    },
    async stopSession(sessionId: string): Promise<void> {
      await json<unknown>(apiPath('sessionStop', { id: sessionId }), { method: 'POST', body: '{}' });
    },
    async listFiles(sessionId: string, path: string): Promise<FileEntry[]> {
      const body = await json<ListFilesResponse>(apiPath('sessionFiles', { id: sessionId }, { path }));
      return Array.isArray(body.entries) ? body.entries : [];
    },
    readFile(sessionId: string, path: string): Promise<ReadFileResponse> {
      return json<ReadFileResponse>(apiPath('sessionFile', { id: sessionId }, { path }));
    },
    /**
     * PUT of the file's bytes (streamed through to the task host; the base version in the query);
     * a 409 is an outcome (the conflict banner), not an exception; 413 is an ApiRequestError with the limit.
     */
    async writeFile(sessionId: string, path: string, content: string, baseVersion: string | undefined): Promise<WriteOutcome> {
      const query: Record<string, string> = baseVersion === undefined ? { path } : { path, [WRITE_BASE_VERSION_PARAM]: baseVersion };
      const res = await fetchImpl(apiPath('sessionFile', { id: sessionId }, query), {
        method: 'PUT',
        headers: { Accept: 'application/json', 'Content-Type': FILE_BYTES_CONTENT_TYPE },
        body: content,
      });
      if (res.status === 409) {
        let currentVersion: string | undefined;
        try {
          const body = (await res.json()) as Partial<WriteConflictResponse>;
          if (typeof body.currentVersion === 'string') currentVersion = body.currentVersion;
        } catch {
          // a conflict without details still is a conflict
        }
        return { ok: false, conflict: true, currentVersion };
      }
      if (!res.ok) throw await errorOf(res);
      const body = (await res.json()) as WriteFileResponse;
      return { ok: true, version: body.version };
    },
    /** Several file operations checked and applied as one (a WorkspaceEdit); 409 is an outcome. */
    async applyFiles(
      sessionId: string,
      operations: FileOperation[],
    ): Promise<{ ok: true; versions: Record<string, string> } | { ok: false; conflicts: ApplyConflictResponse['conflicts'] }> {
      const res = await fetchImpl(apiPath('sessionFilesApply', { id: sessionId }), {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ operations }),
      });
      if (res.status === 409) {
        const body = (await res.json().catch(() => ({}))) as Partial<ApplyConflictResponse>;
        return { ok: false, conflicts: Array.isArray(body.conflicts) ? body.conflicts : [] };
      }
      if (!res.ok) throw await errorOf(res);
      const body = (await res.json()) as ApplyFilesResponse;
      return { ok: true, versions: body.versions ?? {} };
    },
    /** A file's text at HEAD; undefined when HEAD has no such file (or the workspace no git). */
    async readHeadFile(sessionId: string, path: string): Promise<string | undefined> {
      try {
        const body = await json<GitHeadResponse>(sessionGitHeadPath(sessionId, path));
        return typeof body.content === 'string' ? body.content : undefined;
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 404) return undefined;
        throw err;
      }
    },
    /** The language servers the session's agents hold (for the status details). */
    agentLeases(sessionId: string): Promise<AgentLeasesResponse> {
      return json<AgentLeasesResponse>(apiPath('sessionAgentLeases', { id: sessionId }));
    },
    search(sessionId: string, text: string): Promise<SearchResponse> {
      return json<SearchResponse>(apiPath('sessionSearch', { id: sessionId }, { q: text }));
    },
    /**
     * A search whose hits arrive as the task host finds them. Aborting `signal` (the query changed)
     * closes the request, which stops the search on the task host.
     */
    async searchStream(sessionId: string, text: string, options: SearchOptions, signal: AbortSignal, onHits: (hits: SearchHit[]) => void): Promise<SearchEnd> {
      const res = await fetchImpl(apiPath('sessionSearch', { id: sessionId }, searchParams(text, options, true)), {
        headers: { Accept: 'application/x-ndjson' },
        signal,
      });
      if (!res.ok) throw await errorOf(res);
      if (!res.body) throw new ApiRequestError(res.status, 'internal');
      const reader = res.body.getReader();
      const decoder = new NdjsonDecoder<SearchStreamLine>();
      const handle = (lines: SearchStreamLine[]): SearchEnd | undefined => {
        for (const line of lines) {
          if (line.type === 'hits' && Array.isArray(line.hits)) onHits(line.hits);
          else if (line.type === 'done') return { truncated: line.truncated === true, engine: line.engine };
          else if (line.type === 'error') throw new ApiRequestError(line.error?.code === 'bad_request' ? 400 : 500, line.error?.code);
        }
        return undefined;
      };
      for (;;) {
        const { done, value } = await reader.read();
        const end = done ? handle(decoder.end()) : handle(decoder.push(value));
        if (end) {
          void reader.cancel().catch(() => undefined);
          return end;
        }
        // A stream that ends without its `done` line was cut (task host gone): a failure, not "no hits".
        if (done) throw new ApiRequestError(502, 'task_host_unavailable');
      }
    },
    async getSettings(): Promise<UserSettings> {
      try {
        return { ...DEFAULT_SETTINGS, ...(await json<Partial<UserSettings>>(API_ROUTES.settings)) };
      } catch {
        return DEFAULT_SETTINGS;
      }
    },
    /** PUT a partial update; the answer is the whole stored settings object. */
    async updateSettings(patch: Record<string, unknown>): Promise<UserSettings> {
      const body = await json<Partial<UserSettings>>(API_ROUTES.settings, { method: 'PUT', body: JSON.stringify(patch) });
      return { ...DEFAULT_SETTINGS, ...body };
    },
    /**
     * The language catalog for the Editors settings. Read defensively: a bare array or
     * `{languages: [...]}`, entries with fields missing (see lib/settings/languageCatalog).
     */
    async getLanguages(): Promise<Array<Partial<LanguageCatalogEntry>>> {
      const body = await json<unknown>(API_ROUTES.languages);
      const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.languages) ? body.languages : [];
      return list.filter(isRecord) as Array<Partial<LanguageCatalogEntry>>;
    },
  };
}

export type KandevApi = ReturnType<typeof createKandevApi>;
