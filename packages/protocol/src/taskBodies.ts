import * as z from 'zod/mini';
import { AGENTCTL_ENV_PREFIX } from './agentctlLaunch.js';
import { EXECUTOR_KINDS, type ApiError, type TaskInvalid, type TaskPatch } from './api.js';
import { isRecord } from './records.js';

/**
 * The schema of the task bodies (`POST /api/tasks`, `PATCH /api/tasks/:id`): shapes, bounds and
 * names, checked without touching any file system, so the browser's forms and the backend share
 * them. What needs the host (absolute paths, folders that exist, a workspace layout) stays with
 * the backend, which runs it on what this accepts.
 */
export const MAX_TASK_TITLE_CHARS = 200;
export const MAX_TASK_REPOSITORIES = 32;
export const MAX_TASK_ENV_ENTRIES = 256;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A refused task body: the API error plus which field and why, for the browser's copy. */
export type TaskBodyError = ApiError & { invalid: TaskInvalid };
export type TaskBodyResult<T> = { ok: true; value: T } | { ok: false; error: TaskBodyError };

export function refuseTaskBody(message: string, invalid: TaskInvalid): { ok: false; error: TaskBodyError } {
  return { ok: false, error: { code: 'bad_request', message, invalid } };
}

const TITLE_EMPTY = 'title must be a non-empty string';
const titleSchema = z.pipe(
  z.string({ error: TITLE_EMPTY }).check(
    z.refine((title) => title.trim() !== '', { error: TITLE_EMPTY }),
    z.refine((title) => title.length <= MAX_TASK_TITLE_CHARS, {
      error: `title must be at most ${MAX_TASK_TITLE_CHARS} characters`,
      params: { reason: 'title_too_long' },
    }),
  ),
  z.transform((title: string) => title.trim()),
);

const REPOSITORIES_COUNT = `repositories must be a list of 1 to ${MAX_TASK_REPOSITORIES} {"path"} objects`;
const REPOSITORY_PATH = 'each repository must be {"path": "..."}';
// The count is checked before any entry (pipe): a list of the wrong length is refused as such.
const repositoriesSchema = z.pipe(
  z
    .array(z.unknown(), { error: REPOSITORIES_COUNT })
    .check(z.minLength(1, { error: REPOSITORIES_COUNT }), z.maxLength(MAX_TASK_REPOSITORIES, { error: REPOSITORIES_COUNT })),
  z.array(
    z.object(
      { path: z.string({ error: REPOSITORY_PATH }).check(z.refine((path) => path.trim() !== '', { error: REPOSITORY_PATH })) },
      { error: REPOSITORY_PATH },
    ),
  ),
);

const ENV_SHAPE = 'env must be an object of string values';
/** A task's environment: at most MAX_TASK_ENV_ENTRIES string values under shell-safe names. */
const envSchema = z.pipe(
  z.nullish(
    z.pipe(
      z
        .record(z.string(), z.unknown(), { error: ENV_SHAPE })
        .check(z.refine((env) => Object.keys(env).length <= MAX_TASK_ENV_ENTRIES, { error: `env may have at most ${MAX_TASK_ENV_ENTRIES} entries` })),
      z.record(
        // agentctl's own variables are set by the backend for each session, never by a task.
        z.string().check(z.refine((name) => ENV_NAME.test(name) && !name.startsWith(AGENTCTL_ENV_PREFIX))),
        z.string({ error: (issue) => `env ${String(issue.path?.[issue.path.length - 1])} must be a string` }),
        {
          error: (issue) =>
            issue.code !== 'invalid_key'
              ? ENV_SHAPE
              : ENV_NAME.test(String(issue.input))
                ? `env may not set ${String(issue.input)}`
                : `env name is not valid: ${String(issue.input)}`,
        },
      ),
    ),
  ),
  z.transform((env: Record<string, string> | null | undefined) => env ?? {}),
);

/** The shape of a new task (`POST /api/tasks`); repository paths are as sent (trimmed of nothing). */
const newTaskSchema = z.object({
  title: titleSchema,
  executor: z.enum(EXECUTOR_KINDS, { error: `executor must be one of ${EXECUTOR_KINDS.join(', ')}` }),
  repositories: repositoriesSchema,
  env: envSchema,
});
export type NewTaskBody = z.output<typeof newTaskSchema>;

/** `PATCH /api/tasks/:id`: the fields a person may change after creation, each optional. */
const taskPatchSchema = z.object({
  title: z.optional(titleSchema),
  trustWorkspaceTools: z.optional(z.boolean({ error: 'trustWorkspaceTools must be true or false' })),
});
// The API's TaskPatch is this schema's output (api.ts cannot import this module: it imports api.ts).
const patchMatchesApi: z.output<typeof taskPatchSchema> extends TaskPatch ? (TaskPatch extends z.output<typeof taskPatchSchema> ? true : never) : never = true;
void patchMatchesApi;

/** Which field a schema issue is about and why, in the browser's vocabulary (TaskInvalid). */
function invalidOf(issue: z.core.$ZodIssue): TaskInvalid {
  const [field, index] = issue.path;
  const reason = issue.code === 'custom' ? (issue.params as { reason?: TaskInvalid['reason'] } | undefined)?.reason : undefined;
  switch (field) {
    case 'title':
      return { field, reason: reason ?? 'title_empty' };
    case 'executor':
      return { field, reason: 'executor_unknown' };
    case 'repositories':
      return typeof index === 'number' ? { field, reason: 'path_empty', index } : { field, reason: 'repositories_count' };
    case 'env':
      return { field, reason: 'env_invalid' };
    case 'trustWorkspaceTools':
      return { field, reason: 'trust_invalid' };
    default:
      return { field: 'body', reason: 'body' };
  }
}

/** A body checked by `schema`; the first issue (in field order) refuses it, naming the field. */
function parseBody<S extends z.ZodMiniType>(schema: S, body: unknown): TaskBodyResult<z.output<S>> {
  if (!isRecord(body)) return refuseTaskBody('the body must be a JSON object', { field: 'body', reason: 'body' });
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  return refuseTaskBody(issue.message, invalidOf(issue));
}

const titleBodySchema = z.object({ title: titleSchema });

/** A title: a non-empty string of at most MAX_TASK_TITLE_CHARS, trimmed. */
export function parseTaskTitle(title: unknown): TaskBodyResult<string> {
  const parsed = parseBody(titleBodySchema, { title });
  return parsed.ok ? { ok: true, value: parsed.value.title } : parsed;
}

/** The shape of a new task; the first wrong field refuses the whole body. */
export function parseNewTaskBody(body: unknown): TaskBodyResult<NewTaskBody> {
  return parseBody(newTaskSchema, body);
}

const PATCHABLE = new Set(Object.keys(taskPatchSchema.shape));

/**
 * `PATCH /api/tasks/:id`: a new title and/or the workspace trust switch. Only the fields a person
 * may change after creation are accepted (the workspace is fixed once sessions exist); an unknown
 * field or a wrong type refuses the whole body, so nothing is half-applied.
 */
export function parseTaskPatchBody(body: unknown): TaskBodyResult<TaskPatch> {
  if (!isRecord(body)) return refuseTaskBody('the body must be a JSON object', { field: 'body', reason: 'body' });
  const unknown = Object.keys(body).filter((key) => !PATCHABLE.has(key));
  if (unknown.length > 0)
    return refuseTaskBody(`cannot change ${unknown.map((k) => JSON.stringify(k.slice(0, 64))).join(', ')}`, { field: 'body', reason: 'body' });
  const parsed = parseBody(taskPatchSchema, body);
  if (!parsed.ok) return parsed;
  const patch: TaskPatch = {};
  if (parsed.value.title !== undefined) patch.title = parsed.value.title;
  if (parsed.value.trustWorkspaceTools !== undefined) patch.trustWorkspaceTools = parsed.value.trustWorkspaceTools;
  if (Object.keys(patch).length === 0) return refuseTaskBody('nothing to change', { field: 'body', reason: 'nothing_to_change' });
  return { ok: true, value: patch };
}
