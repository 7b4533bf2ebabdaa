import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { MAX_REPORTED_BUILD_FILES } from '@kandev/protocol';

const MAX_DEPTH = 2;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'build', 'out', 'target', '.gradle']);

/**
 * The files of `names` (base names a language's untrusted rule lists: a build its server imports,
 * a config it evaluates), workspace-relative: in the workspace root and up to two folder levels
 * below (repositories and their modules), bounded so a huge tree costs nothing. Unreadable folders
 * are skipped: they cannot be loaded either.
 */
export function findImportedBuildFiles(workspaceReal: string, names: readonly string[]): string[] {
  const wanted = new Set(names);
  if (wanted.size === 0) return [];
  // A name may carry its folder (`.config/tool.ts`): that folder is entered even when hidden.
  const folders = new Set(names.filter((n) => n.includes('/')).map((n) => n.slice(0, n.indexOf('/'))));
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= MAX_REPORTED_BUILD_FILES) return;
      if (!entry.isFile()) continue;
      const folderAndName = `${basename(dir)}/${entry.name}`;
      if (wanted.has(entry.name) || wanted.has(folderAndName)) found.push(relative(workspaceReal, join(dir, entry.name)));
    }
    if (depth >= MAX_DEPTH) return;
    for (const entry of entries) {
      if (entry.isDirectory() && (folders.has(entry.name) || (!entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name))))
        visit(join(dir, entry.name), depth + 1);
    }
  };
  visit(workspaceReal, 0);
  return found.sort();
}
