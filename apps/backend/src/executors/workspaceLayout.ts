import { isAbsolute, parse, relative, resolve, sep } from 'node:path';
import type { Repository } from '@kandev/protocol';
import { fail, ok, type Result } from '../base/result.js';

export interface WorkspaceLayout {
  /** Absolute workspace root given to agentctl. */
  workspacePath: string;
  /** Repositories relative to the root; `[]` for one repository at the root (docs/internals.md). */
  repoSubpaths: string[];
}

/**
 * Local PC layout: one repository is the workspace itself; several share their deepest common
 * ancestor. Nested repositories and a common ancestor that is the filesystem root are refused:
 * the first makes subpaths ambiguous, the second would hand agentctl the whole disk.
 */
export function localWorkspaceLayout(repositories: readonly Repository[]): Result<WorkspaceLayout, string> {
  if (repositories.length === 0) return fail('a task needs at least one repository');
  const paths = repositories.map((r) => r.path);
  if (paths.some((p) => !isAbsolute(p))) return fail('repository paths must be absolute');
  const normalized = paths.map((p) => resolve(p));
  if (normalized.length === 1) return ok({ workspacePath: normalized[0] as string, repoSubpaths: [] });
  let root = normalized[0] as string;
  for (const path of normalized.slice(1)) root = commonAncestor(root, path);
  if (root === parse(root).root) return fail('repositories share no folder below the filesystem root');
  const repoSubpaths = normalized.map((p) => relative(root, p).split(sep).join('/'));
  if (repoSubpaths.some((s) => s === '')) return fail('repositories must not contain one another');
  for (const a of repoSubpaths) {
    if (repoSubpaths.some((b) => b !== a && b.startsWith(`${a}/`))) return fail('repositories must not contain one another');
  }
  return ok({ workspacePath: root, repoSubpaths });
}

function commonAncestor(a: string, b: string): string {
  const partsA = a.split(sep);
  const partsB = b.split(sep);
  const common: string[] = [];
  for (let i = 0; i < Math.min(partsA.length, partsB.length); i++) {
    if (partsA[i] !== partsB[i]) break;
    common.push(partsA[i] as string);
  }
  const joined = common.join(sep);
  return joined === '' ? parse(a).root : joined;
}
