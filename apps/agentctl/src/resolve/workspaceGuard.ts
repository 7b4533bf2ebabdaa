import type { HostFlavour } from './flavour.js';
import { isWindows } from './flavour.js';

/**
 * True when a (real) candidate path is a repository-controlled server: anything under a
 * `.kandev/lsp-servers` folder inside the workspace (S57). That is also what `$HOME/.kandev` is
 * when an executor sets HOME to the workspace, so the managed root can never be planted by a repo.
 */
export function isRepositoryControlled(candidateReal: string, workspaceReal: string, flavour: HostFlavour): boolean {
  const p = flavour.path;
  const fold = (s: string) => (isWindows(flavour) ? s.toLowerCase() : s);
  const rel = p.relative(fold(workspaceReal), fold(candidateReal));
  const inside = rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
  if (!inside) return false;
  const parts = rel.split(p.sep);
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] === '.kandev' && parts[i + 1] === 'lsp-servers') return true;
  }
  return false;
}
