import { MANAGED_SEGMENTS } from '../install/layout.js';
import { isWindows, pathFor } from '../env/taskEnv.js';

/**
 * True when a (real) candidate path is a repository-controlled server: anything under a
 * `.kandev/lsp-servers` folder inside the workspace (S57). That is also what `$HOME/.kandev` is
 * when an executor sets HOME to the workspace, so the managed root can never be planted by a repo.
 */
export function isRepositoryControlled(candidateReal: string, workspaceReal: string, platform: NodeJS.Platform): boolean {
  const p = pathFor(platform);
  const fold = (s: string) => (isWindows(platform) ? s.toLowerCase() : s);
  const rel = p.relative(fold(workspaceReal), fold(candidateReal));
  const inside = rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
  if (!inside) return false;
  const [first, second] = MANAGED_SEGMENTS;
  const parts = rel.split(p.sep);
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] === first && parts[i + 1] === second) return true;
  }
  return false;
}
