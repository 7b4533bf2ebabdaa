/**
 * The live workspace: what changed on a task host's disk, pushed to the page.
 *
 * One watcher per workspace runs in agentctl, next to the files. Its events reach the browser over
 * one push stream per session: agentctl `GET /api/v1/workspace/events` (WebSocket, the session's
 * bearer token) -> backend `GET /api/sessions/:id/events` (WebSocket, the access rules of every
 * other route) -> page. The stream carries paths and git state, never file contents: the page reads
 * contents through the files API as it always has.
 */

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
