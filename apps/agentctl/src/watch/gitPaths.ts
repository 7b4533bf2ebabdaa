/**
 * What of a repository's `.git` folder the watcher looks at. Its internals are never reported as
 * workspace changes; only the files whose change means "the git state may differ" (the current
 * branch, the index, refs) wake the git state, and the big folders are never watched at all.
 */

/** Folders inside `.git` the watcher never descends into (objects alone can be 100,000 files). */
export const UNWATCHED_GIT_FOLDERS = ['objects', 'logs', 'lfs', 'modules', 'worktrees', 'hooks', 'info', 'rr-cache', 'fsmonitor--daemon'];

export type GitPathVerdict = 'not_git' | 'git_state' | 'git_internal';

/**
 * Classifies a workspace-relative path (`/`-separated) against the repositories' roots
 * (`''` for a repository at the workspace root).
 */
export function classifyGitPath(rel: string, repoRoots: readonly string[]): GitPathVerdict {
  for (const root of repoRoots) {
    const prefix = root === '' ? '.git' : `${root}/.git`;
    if (rel !== prefix && !rel.startsWith(`${prefix}/`)) continue;
    const inner = rel.slice(prefix.length + 1);
    if (inner === 'HEAD' || inner === 'index' || inner === 'packed-refs' || inner === 'refs' || inner.startsWith('refs/')) return 'git_state';
    return 'git_internal';
  }
  // A nested repository's .git (not one of ours) is still nobody's business but git's.
  return rel === '.git' || rel.startsWith('.git/') || rel.includes('/.git/') || rel.endsWith('/.git') ? 'git_internal' : 'not_git';
}
