import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, found from this file's own location rather than the working directory, so
 * `node apps/backend/dist/backend.mjs` and `tsx apps/backend/src/main.ts` agree wherever they are
 * started from. Both live two folders below `apps/backend`; walking up to the workspace manifest
 * keeps that true if the bundle moves a level.
 */
export function findRepoRoot(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (let i = 0; i < 6; i++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isWorkspaceManifest(manifest)) return dir;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return resolve(dirname(fileURLToPath(fromUrl)), '../../..');
}

function isWorkspaceManifest(path: string): boolean {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { workspaces?: unknown };
    return Array.isArray(parsed.workspaces);
  } catch {
    return false;
  }
}
