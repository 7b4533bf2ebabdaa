import { realpath, stat } from 'node:fs/promises';
import type { CatalogLanguage } from '../catalog/catalog.js';
import { goBinDirs, managedBinDir, managedRoot } from '../install/layout.js';
import { INSTALL_STRATEGY_OF_KIND } from '@kandev/protocol';
import { pathFor, type TaskEnv } from '../env/taskEnv.js';
import { launcherNames, pathDirectories, pathExtensions } from '../env/pathLookup.js';
import { isRepositoryControlled } from './workspaceGuard.js';

export type ProbeResult = 'file' | 'other' | 'missing';

/** File system access of resolution, injectable so Windows paths resolve in tests on Linux. */
export interface ResolveFs {
  probe(path: string): Promise<ProbeResult>;
  /** Real path of an existing file; resolution refuses a candidate it cannot place. */
  realpath(path: string): Promise<string>;
}

export const nodeResolveFs: ResolveFs = {
  async probe(path) {
    try {
      return (await stat(path)).isFile() ? 'file' : 'other';
    } catch {
      return 'missing';
    }
  },
  realpath: (path) => realpath(path),
};

export interface ResolveRequest {
  language: CatalogLanguage;
  env: TaskEnv;
  /** The task host's platform (injected as win32 in tests on Linux). */
  platform: NodeJS.Platform;
  /** Real path of the workspace, for the S57 guard. */
  workspaceReal: string;
  fs?: ResolveFs;
  /** Overrides the task env's PATHEXT (Windows). */
  pathExt?: readonly string[];
}

export type ResolveSource = 'path' | 'managed' | 'go_bin';

export type ResolveOutcome = { found: true; path: string; source: ResolveSource } | { found: false; refused: string[] };

/** Ordered candidate directories: task PATH, then the managed root, then where `go install` puts a go recipe's server. */
function searchDirectories(req: ResolveRequest): Array<{ dir: string; source: ResolveSource }> {
  const out: Array<{ dir: string; source: ResolveSource }> = pathDirectories(req.env, req.platform).map((dir) => ({ dir, source: 'path' }));
  const root = managedRoot(req.env, req.platform);
  const managed = root === undefined ? undefined : managedBinDir(root, req.language.id, req.platform);
  if (managed !== undefined) out.push({ dir: managed, source: 'managed' });
  if (req.language.installStrategy === INSTALL_STRATEGY_OF_KIND.go) for (const dir of goBinDirs(req.env, req.platform)) out.push({ dir, source: 'go_bin' });
  return out;
}

/**
 * Finds a language server's launcher. A regular file counts as found even when it is not
 * executable: launching it then fails loudly with 4008 (S28) instead of silently reporting the
 * server missing and offering an install over a broken one.
 */
export async function resolveServer(req: ResolveRequest): Promise<ResolveOutcome> {
  const fs = req.fs ?? nodeResolveFs;
  const names = launcherNames(req.language.binary, req.platform, pathExtensions(req.env, req.platform, req.pathExt));
  const refused: string[] = [];
  for (const { dir, source } of searchDirectories(req)) {
    for (const name of names) {
      const candidate = pathFor(req.platform).join(dir, name);
      if ((await fs.probe(candidate)) !== 'file') continue;
      let real: string;
      try {
        real = await fs.realpath(candidate);
      } catch {
        continue;
      }
      if (isRepositoryControlled(real, req.workspaceReal, req.platform) || isRepositoryControlled(candidate, req.workspaceReal, req.platform)) {
        refused.push(candidate);
        continue;
      }
      return { found: true, path: candidate, source };
    }
  }
  return { found: false, refused };
}
