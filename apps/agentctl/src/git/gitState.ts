/**
 * The workspace's git state against HEAD, read on the task host: `git status --porcelain=v2` for
 * what changed, `git diff --numstat HEAD` for line counts, and the lines of small untracked text
 * files counted as added. Several repositories (AGENTCTL_REPOS) are read one by one, their paths
 * prefixed with the repository's folder; branch and head are the first repository's.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitFileChange, GitState } from '@kandev/protocol';
import { parseNumstat, parseStatusV2 } from './porcelain.js';
import { runGit } from './runGit.js';

/** At most this many files are listed (a workspace with a huge untracked tree stays cheap to send). */
export const MAX_GIT_STATE_FILES = 5_000;
/** Untracked files whose lines are counted, and the largest one read for it. */
const MAX_COUNTED_UNTRACKED = 200;
const MAX_COUNTED_UNTRACKED_BYTES = 1024 * 1024;

export async function readGitState(workspaceRoot: string, repoRoots: readonly string[], env: Record<string, string>): Promise<GitState> {
  const roots = repoRoots.length > 0 ? repoRoots : [''];
  const files: GitFileChange[] = [];
  let first: { branch: string | null; head: string | null } | undefined;
  for (const repo of roots) {
    const cwd = join(workspaceRoot, repo);
    const inside = await runGit(['rev-parse', '--show-prefix'], cwd, env);
    if (!inside.ok) {
      if (inside.missing) return { available: false, reason: 'git_missing' };
      continue; // not a repository (this folder of several may not be one)
    }
    // The workspace may be a folder inside a repository: paths are reported relative to it.
    const prefix = inside.stdout.trim();
    const status = await runGit(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--', '.'], cwd, env);
    if (!status.ok) return { available: false, reason: 'git_failed' };
    const reading = parseStatusV2(status.stdout);
    first ??= { branch: reading.branch, head: reading.head };
    const counts = reading.head ? await runGit(['diff', '--numstat', '-z', 'HEAD', '--', '.'], cwd, env) : undefined;
    const numstat = counts?.ok ? parseNumstat(counts.stdout) : new Map();
    let counted = 0;
    for (const change of reading.files) {
      if (files.length >= MAX_GIT_STATE_FILES) break;
      const path = stripPrefix(change.path, prefix);
      if (path === undefined) continue;
      const entry: GitFileChange = { ...change, path: join(repo, path).split('\\').join('/') };
      if (change.from !== undefined)
        entry.from = join(repo, stripPrefix(change.from, prefix) ?? change.from)
          .split('\\')
          .join('/');
      const lines = numstat.get(change.path);
      if (lines) Object.assign(entry, lines);
      else if (change.status === 'untracked' && counted++ < MAX_COUNTED_UNTRACKED) {
        const added = await countLines(join(cwd, path));
        if (added !== undefined) Object.assign(entry, { added, deleted: 0 });
      }
      files.push(entry);
    }
  }
  if (!first) return { available: false, reason: 'not_a_repository' };
  return { available: true, branch: first.branch, head: first.head, files };
}

/** git reports paths from the repository's root; the workspace may sit below it. */
function stripPrefix(path: string, prefix: string): string | undefined {
  if (prefix === '') return path;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/** Lines of a small text file; undefined for a binary or large one (no count shown). */
async function countLines(path: string): Promise<number | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    if (size > MAX_COUNTED_UNTRACKED_BYTES) return undefined;
    const bytes = Buffer.alloc(size);
    await handle.read(bytes, 0, size, 0);
    if (bytes.subarray(0, 8000).includes(0)) return undefined;
    let lines = 0;
    for (const byte of bytes) if (byte === 10) lines++;
    return size > 0 && bytes[size - 1] !== 10 ? lines + 1 : lines;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}
