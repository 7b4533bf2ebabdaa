import {
  DEFAULT_SETTINGS,
  isRecord,
  type LanguageCatalogEntry,
  type ApiErrorCode,
  type FileEntry,
  type ListFilesResponse,
  type ReadFileResponse,
  type SearchResponse,
  type Session,
  type Task,
  type UserSettings,
  type WriteConflictResponse,
  type WriteFileResponse,
  type WriteFileRequest,
} from '@kandev/protocol';

/** A failed API call: the HTTP status and the API's error code when it sent one. Never shown raw. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | undefined,
  ) {
    super(`HTTP ${status}${code ? ` ${code}` : ''}`);
    this.name = 'ApiRequestError';
  }
}

/** A task as the list shows it; `sessions` is listed when the backend includes it. */
export type TaskSummary = Task & { sessions?: Session[] };

export type WriteOutcome = { ok: true; version: string } | { ok: false; conflict: true; currentVersion?: string };

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

async function errorOf(res: Response): Promise<ApiRequestError> {
  let code: ApiErrorCode | undefined;
  try {
    const body = (await res.json()) as { error?: { code?: unknown } };
    if (typeof body?.error?.code === 'string') code = body.error.code as ApiErrorCode;
  } catch {
    // not JSON
  }
  return new ApiRequestError(res.status, code);
}

/** The backend's HTTP API (DESIGN section 9), relative to the page's origin. */
export function createKandevApi(fetchImpl: FetchLike = (input, init) => fetch(input, init)) {
  const json = async <T>(url: string, init?: RequestInit): Promise<T> => {
    const res = await fetchImpl(url, { ...init, headers: { Accept: 'application/json', ...(init?.body ? { 'Content-Type': 'application/json' } : {}), ...init?.headers } });
    if (!res.ok) throw await errorOf(res);
    return (await res.json()) as T;
  };
  const session = (id: string) => `/api/sessions/${encodeURIComponent(id)}`;
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

  return {
    async listTasks(): Promise<TaskSummary[]> {
      const body = await json<TaskSummary[] | { tasks?: TaskSummary[] }>('/api/tasks');
      return Array.isArray(body) ? body : Array.isArray(body.tasks) ? body.tasks : [];
    },
    startSession(taskId: string): Promise<Session> {
      return json<Session>(`/api/tasks/${encodeURIComponent(taskId)}/sessions`, { method: 'POST', body: '{}' });
    },
    async stopSession(sessionId: string): Promise<void> {
      await json<unknown>(`${session(sessionId)}/stop`, { method: 'POST', body: '{}' });
    },
    async listFiles(sessionId: string, path: string): Promise<FileEntry[]> {
      const body = await json<ListFilesResponse>(`${session(sessionId)}/files?${q({ path })}`);
      return Array.isArray(body.entries) ? body.entries : [];
    },
    readFile(sessionId: string, path: string): Promise<ReadFileResponse> {
      return json<ReadFileResponse>(`${session(sessionId)}/file?${q({ path })}`);
    },
    /** PUT with baseVersion; a 409 is an outcome (the conflict banner), not an exception. */
    async writeFile(sessionId: string, path: string, content: string, baseVersion: string | undefined): Promise<WriteOutcome> {
      const res = await fetchImpl(`${session(sessionId)}/file?${q({ path })}`, {
        method: 'PUT',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify((baseVersion === undefined ? { content } : { content, baseVersion }) satisfies WriteFileRequest),
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
    search(sessionId: string, text: string): Promise<SearchResponse> {
      return json<SearchResponse>(`${session(sessionId)}/search?${q({ q: text })}`);
    },
    async getSettings(): Promise<UserSettings> {
      try {
        return { ...DEFAULT_SETTINGS, ...(await json<Partial<UserSettings>>('/api/settings')) };
      } catch {
        return DEFAULT_SETTINGS;
      }
    },
    /** PUT a partial update; the answer is the whole stored settings object. */
    async updateSettings(patch: Record<string, unknown>): Promise<UserSettings> {
      const body = await json<Partial<UserSettings>>('/api/settings', { method: 'PUT', body: JSON.stringify(patch) });
      return { ...DEFAULT_SETTINGS, ...body };
    },
    /**
     * The language catalog for the Editors settings. Read defensively: a bare array or
     * `{languages: [...]}`, entries with fields missing (see lib/settings/languageCatalog).
     */
    async getLanguages(): Promise<Array<Partial<LanguageCatalogEntry>>> {
      const body = await json<unknown>('/api/languages');
      const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.languages) ? body.languages : [];
      return list.filter(isRecord) as Array<Partial<LanguageCatalogEntry>>;
    },
  };
}

export type KandevApi = ReturnType<typeof createKandevApi>;
