/**
 * A file's text at HEAD, for the diff editor. The path is confined lexically like every files-API
 * path (no `..`, nothing absolute); git reads it from the object database, never the work tree, so
 * no link on disk can lead it out of the repository.
 */
import { join } from 'node:path';
import type { GitHeadResponse } from '@kandev/protocol';
import { fail, ok, type FilesResult } from '../base/filesResult.js';
import { MAX_READ_BYTES } from '../files/read.js';
import { parseRelativePath } from '../files/workspace.js';
import { runGit, runGitBytes } from './runGit.js';

export async function readHeadFile(
  workspaceReal: string,
  repoRoots: readonly string[],
  raw: string,
  env: Record<string, string>,
): Promise<FilesResult<GitHeadResponse>> {
  const parsed = parseRelativePath(raw);
  if (!parsed.ok) return parsed;
  const rel = parsed.value.text;
  if (rel === '') return fail(400, 'bad_request', 'a file path is required');
  // The repository holding the path: the deepest listed root that contains it.
  const roots = repoRoots.length > 0 ? repoRoots : [''];
  const repo = roots.filter((root) => root === '' || rel === root || rel.startsWith(`${root}/`)).sort((a, b) => b.length - a.length)[0];
  if (repo === undefined) return fail(404, 'not_found', 'the path is in no repository');
  const inner = repo === '' ? rel : rel.slice(repo.length + 1);
  const cwd = join(workspaceReal, repo);
  // `HEAD:./x` is relative to cwd, which may be a folder inside the repository.
  const spec = `HEAD:./${inner}`;
  const size = await runGit(['cat-file', '-s', spec], cwd, env);
  if (!size.ok) return fail(404, 'not_found', 'the path is not in HEAD');
  if (Number(size.stdout.trim()) > MAX_READ_BYTES) return fail(413, 'too_large', `file is larger than ${MAX_READ_BYTES} bytes`);
  const blob = await runGitBytes(['cat-file', 'blob', spec], cwd, env);
  if (!blob.ok) return fail(404, 'not_found', 'the path is not a file in HEAD');
  return ok({ content: blob.bytes.toString('utf8') });
}
