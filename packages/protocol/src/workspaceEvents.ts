/**
 * The live workspace: what changed on a task host's disk, pushed to the page.
 *
 * One watcher per workspace runs in agentctl, next to the files. Its events reach the browser over
 * one push stream per session: agentctl `GET /api/v1/workspace/events` (WebSocket, the session's
 * bearer token) -> backend `GET /api/sessions/:id/events` (WebSocket, the access rules of every
 * other route) -> page. The stream carries paths and git state, never file contents: the page reads
 * contents through the files API as it always has.
 */
import * as z from 'zod/mini';
import { isRecord } from './records.js';
import { API_ROUTES, apiPath } from './routes.js';
import { nonEmptyString, parseWireShape, type WireShapeError, type WireShapeResult } from './wireShape.js';

/** A path relative to the workspace root, with `/` separators (as every files API path). */
export type WorkspacePath = string;

const PATH = 'must be a non-empty workspace-relative path';
const workspacePath = () => nonEmptyString(PATH);

const WATCH_MODES = ['native', 'polling'] as const;
const GIT_FILE_STATUSES = ['modified', 'added', 'deleted', 'untracked', 'renamed'] as const;
const GIT_UNAVAILABLE = ['not_a_repository', 'git_missing', 'git_failed'] as const;
const count = () => z.optional(z.number({ error: 'must be a count' }).check(z.int({ error: 'must be a count' }), z.nonnegative({ error: 'must be a count' })));

export const fileChangeSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.enum(['created', 'changed', 'deleted']), path: workspacePath(), directory: z.boolean({ error: 'must be true or false' }) }),
    z.object({ kind: z.literal('renamed'), from: workspacePath(), path: workspacePath(), directory: z.boolean({ error: 'must be true or false' }) }),
  ],
  { error: 'must be created, changed, deleted or renamed' },
);
export type FileChange = z.infer<typeof fileChangeSchema>;

/** How the task host watches: natively, or by polling the paths the page has in view (watch limit hit). */
export type WatchMode = (typeof WATCH_MODES)[number];
export type WatchDegradedReason = 'watch_limit' | 'watcher_failed';

/** One line of `git status` against HEAD, with line counts from `git diff --numstat HEAD`. */
export type GitFileStatus = (typeof GIT_FILE_STATUSES)[number];
export const gitFileChangeSchema = z.object({
  path: workspacePath(),
  status: z.enum(GIT_FILE_STATUSES, { error: `must be one of ${GIT_FILE_STATUSES.join(', ')}` }),
  /** The old path of a rename. */
  from: z.optional(workspacePath()),
  /** Lines added and deleted against HEAD; absent for binary files. */
  added: count(),
  deleted: count(),
});
export type GitFileChange = z.infer<typeof gitFileChangeSchema>;

const nullableString = () => z.nullable(z.string({ error: 'must be a string or null' }));
export const gitStateSchema = z.discriminatedUnion(
  'available',
  [
    z.object({
      available: z.literal(true),
      branch: nullableString(),
      head: nullableString(),
      files: z.array(gitFileChangeSchema, { error: 'must be a list' }),
    }),
    z.object({ available: z.literal(false), reason: z.enum(GIT_UNAVAILABLE, { error: `must be one of ${GIT_UNAVAILABLE.join(', ')}` }) }),
  ],
  { error: 'must be a git state with available true or false' },
);
export type GitState = z.infer<typeof gitStateSchema>;

/** Frames the server sends on the events stream (one JSON value per text frame). */
export const workspaceEventFrameSchema = z.discriminatedUnion('type', [
  /** Coalesced changes of one short window, in order. */
  z.object({ type: z.literal('files'), changes: z.array(fileChangeSchema, { error: 'must be a list' }) }),
  /** More changed than one frame may carry: reload listings and clean tabs from disk. */
  z.object({ type: z.literal('overflow') }),
  /** Sent first, and again whenever the mode changes. */
  z.object({
    type: z.literal('watch'),
    mode: z.enum(WATCH_MODES, { error: 'must be native or polling' }),
    reason: z.optional(z.enum(['watch_limit', 'watcher_failed'], { error: 'must be watch_limit or watcher_failed' })),
  }),
  /** Sent first, and again whenever it changes. */
  z.object({ type: z.literal('git'), state: gitStateSchema }),
]);
export type WorkspaceEventFrame = z.infer<typeof workspaceEventFrameSchema>;
const EVENT_FRAME_TYPES: ReadonlySet<unknown> = new Set(['files', 'overflow', 'watch', 'git']);

export type WorkspaceEventFrameResult =
  | { kind: 'frame'; frame: WorkspaceEventFrame }
  /** A frame type this page does not know (a newer task host): not an error, nothing to do. */
  | { kind: 'unknown' }
  /** Not a frame this stream sends: the page cannot tell what changed, and catches up from disk. */
  | { kind: 'invalid'; error: WireShapeError };

/** One text frame of the events stream, checked by the schema; a wrong frame is refused whole. */
export function parseWorkspaceEventFrame(data: unknown): WorkspaceEventFrameResult {
  const value = typeof data === 'string' ? parseJson(data) : undefined;
  if (isRecord(value) && typeof value.type === 'string' && !EVENT_FRAME_TYPES.has(value.type)) return { kind: 'unknown' };
  const parsed = parseWireShape(workspaceEventFrameSchema, value, 'workspace event frame');
  return parsed.ok ? { kind: 'frame', frame: parsed.value } : { kind: 'invalid', error: parsed.error };
}

/** At most this many paths of each kind in one `in_view` control (page -> backend -> agentctl). */
export const MAX_IN_VIEW_PATHS = 500;
/** The longest path an `in_view` control may carry. */
export const MAX_IN_VIEW_PATH_LENGTH = 4_096;

const IN_VIEW_LIST = `must be a list of at most ${MAX_IN_VIEW_PATHS} paths`;
const inViewPaths = () =>
  z
    .array(
      // '' is the workspace root (an expanded root folder).
      z
        .string({ error: 'must be a workspace-relative path' })
        .check(z.maxLength(MAX_IN_VIEW_PATH_LENGTH, { error: `must be at most ${MAX_IN_VIEW_PATH_LENGTH} characters` })),
      { error: IN_VIEW_LIST },
    )
    .check(z.maxLength(MAX_IN_VIEW_PATHS, { error: IN_VIEW_LIST }));

/**
 * Frames the page sends: the open files and expanded folders it has in view. Only used while the
 * watcher polls (the OS watch limit is exhausted): then those paths are what is polled. The backend
 * checks a page's control with this schema and sends agentctl their union (capped the same), which
 * agentctl checks again and confines path by path.
 */
export const inViewControlSchema = z.object({ type: z.literal('in_view'), files: inViewPaths(), folders: inViewPaths() });
export type WorkspaceEventControl = z.infer<typeof inViewControlSchema>;

/** One text frame of a page's (or the backend's) `in_view` control; a wrong one is refused whole. */
export function parseInViewControl(text: string, source: string): WireShapeResult<WorkspaceEventControl> {
  return parseWireShape(inViewControlSchema, parseJson(text), source);
}

/** The JSON value of a text frame, or undefined when it is not JSON (the schema then refuses it). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The events stream's routes. agentctl's (bearer session token) is `TASK_HOST_PATHS.workspaceEvents`;
 * the backend's, for the page, is `/api/sessions/:id/events` (cookie or bearer, Origin checked).
 */
export const SESSION_EVENTS_ROUTE = API_ROUTES.sessionEvents;
export function sessionEventsPath(sessionId: string): string {
  return apiPath('sessionEvents', { id: sessionId });
}

/**
 * A file's text at HEAD, for the diff editor: agentctl `GET TASK_HOST_PATHS.gitHead?path=rel`, backend
 * `GET /api/sessions/:id/git/head?path=rel`. 200 `GitHeadResponse`; 404 `not_found` when the path is not
 * in HEAD (or the workspace is not a git repository); 403 `path_outside_workspace` like every files
 * route; 413 `too_large` past the read bound; 400 `bad_request` without `path`.
 */
export interface GitHeadResponse {
  content: string;
}
export const SESSION_GIT_HEAD_ROUTE = API_ROUTES.sessionGitHead;
export function sessionGitHeadPath(sessionId: string, path: WorkspacePath): string {
  return apiPath('sessionGitHead', { id: sessionId }, { path });
}

/**
 * The server's `workspace/didChangeWatchedFiles` registrations, as the broker keeps them with the
 * lease: backend -> agentctl on the lease's task-host stream, sent again (whole) whenever they
 * change. agentctl matches the workspace watcher's changes against them and sends the server
 * `workspace/didChangeWatchedFiles` itself, browser attached or not.
 */
export interface WatchedFilesControl {
  control: 'watched-files';
  /** LSP `FileSystemWatcher`s: `globPattern` a string or a `RelativePattern`, `kind` a bit set (default 7). */
  watchers: unknown[];
}

export function isWatchedFilesControl(value: unknown): value is WatchedFilesControl {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { control?: unknown }).control === 'watched-files' &&
    Array.isArray((value as { watchers?: unknown }).watchers)
  );
}

/** How long the watcher gathers changes before one `files` frame: short enough to feel live. */
export const WORKSPACE_EVENTS_WINDOW_MS = 50;
/**
 * Distinct paths one window may hold. Past it the window's changes are dropped and `overflow` is
 * sent instead (the page reloads what it shows): memory stays bounded whatever a burst writes.
 */
export const WORKSPACE_EVENTS_MAX_CHANGES = 2_000;
