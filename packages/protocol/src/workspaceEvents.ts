/**
 * The live workspace: what changed on a task host's disk, pushed to the page.
 *
 * One watcher per workspace runs in agentctl, next to the files. Its events reach the browser over
 * one push stream per session: agentctl `GET /api/v1/workspace/events` (WebSocket, the session's
 * bearer token) -> backend `GET /api/sessions/:id/events` (WebSocket, the access rules of every
 * other route) -> page. The stream carries paths and git state, never file contents: the page reads
 * contents through the files API as it always has.
 */
import { API_ROUTES, apiPath } from './routes.js';

/** A path relative to the workspace root, with `/` separators (as every files API path). */
export type WorkspacePath = string;

export type FileChange =
  | { kind: 'created' | 'changed' | 'deleted'; path: WorkspacePath; directory: boolean }
  | { kind: 'renamed'; from: WorkspacePath; path: WorkspacePath; directory: boolean };

/** How the task host watches: natively, or by polling the paths the page has in view (watch limit hit). */
export type WatchMode = 'native' | 'polling';
export type WatchDegradedReason = 'watch_limit' | 'watcher_failed';

/** One line of `git status` against HEAD, with line counts from `git diff --numstat HEAD`. */
export type GitFileStatus = 'modified' | 'added' | 'deleted' | 'untracked' | 'renamed';
export interface GitFileChange {
  path: WorkspacePath;
  status: GitFileStatus;
  /** The old path of a rename. */
  from?: WorkspacePath;
  /** Lines added and deleted against HEAD; absent for binary files. */
  added?: number;
  deleted?: number;
}

export type GitState =
  | { available: true; branch: string | null; head: string | null; files: GitFileChange[] }
  | { available: false; reason: 'not_a_repository' | 'git_missing' | 'git_failed' };

/** Frames the server sends on the events stream (one JSON value per text frame). */
export type WorkspaceEventFrame =
  /** Coalesced changes of one short window, in order. */
  | { type: 'files'; changes: FileChange[] }
  /** More changed than one frame may carry: reload listings and clean tabs from disk. */
  | { type: 'overflow' }
  /** Sent first, and again whenever the mode changes. */
  | { type: 'watch'; mode: WatchMode; reason?: WatchDegradedReason }
  /** Sent first, and again whenever it changes. */
  | { type: 'git'; state: GitState };

/**
 * Frames the page sends: the open files and expanded folders it has in view. Only used while the
 * watcher polls (the OS watch limit is exhausted): then those paths are what is polled.
 */
export type WorkspaceEventControl = { type: 'in_view'; files: WorkspacePath[]; folders: WorkspacePath[] };

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
