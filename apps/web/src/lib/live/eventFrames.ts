import type { FileChange, GitFileChange, GitFileStatus, GitState, WorkspaceEventFrame } from '@kandev/protocol';

const GIT_STATUSES: ReadonlySet<string> = new Set<GitFileStatus>(['modified', 'added', 'deleted', 'untracked', 'renamed']);
const UNAVAILABLE_REASONS: ReadonlySet<string> = new Set(['not_a_repository', 'git_missing', 'git_failed']);

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPath = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

function fileChange(v: unknown): FileChange | undefined {
  if (!isRec(v) || !isPath(v.path)) return undefined;
  const directory = v.directory === true;
  if (v.kind === 'renamed') return isPath(v.from) ? { kind: 'renamed', from: v.from, path: v.path, directory } : undefined;
  if (v.kind === 'created' || v.kind === 'changed' || v.kind === 'deleted') return { kind: v.kind, path: v.path, directory };
  return undefined;
}

function gitFile(v: unknown): GitFileChange | undefined {
  if (!isRec(v) || !isPath(v.path) || typeof v.status !== 'string' || !GIT_STATUSES.has(v.status)) return undefined;
  const out: GitFileChange = { path: v.path, status: v.status as GitFileStatus };
  if (isPath(v.from)) out.from = v.from;
  const added = count(v.added);
  const deleted = count(v.deleted);
  if (added !== undefined) out.added = added;
  if (deleted !== undefined) out.deleted = deleted;
  return out;
}

function gitState(v: unknown): GitState | undefined {
  if (!isRec(v)) return undefined;
  if (v.available === false) {
    return typeof v.reason === 'string' && UNAVAILABLE_REASONS.has(v.reason)
      ? { available: false, reason: v.reason as 'not_a_repository' | 'git_missing' | 'git_failed' }
      : { available: false, reason: 'git_failed' };
  }
  if (v.available !== true || !Array.isArray(v.files)) return undefined;
  const files = v.files.map(gitFile).filter((f): f is GitFileChange => f !== undefined);
  return { available: true, branch: typeof v.branch === 'string' ? v.branch : null, head: typeof v.head === 'string' ? v.head : null, files };
}

/**
 * One text frame of the events stream, checked field by field: the page acts on what it
 * understands and drops the rest (an unknown frame type from a newer task host is not an error).
 */
export function parseWorkspaceEventFrame(data: unknown): WorkspaceEventFrame | undefined {
  if (typeof data !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRec(value)) return undefined;
  switch (value.type) {
    case 'files': {
      if (!Array.isArray(value.changes)) return undefined;
      return { type: 'files', changes: value.changes.map(fileChange).filter((c): c is FileChange => c !== undefined) };
    }
    case 'overflow':
      return { type: 'overflow' };
    case 'watch': {
      if (value.mode !== 'native' && value.mode !== 'polling') return undefined;
      const reason = value.reason === 'watch_limit' || value.reason === 'watcher_failed' ? value.reason : undefined;
      return reason ? { type: 'watch', mode: value.mode, reason } : { type: 'watch', mode: value.mode };
    }
    case 'git': {
      const state = gitState(value.state);
      return state ? { type: 'git', state } : undefined;
    }
    default:
      return undefined;
  }
}
