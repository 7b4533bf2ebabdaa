import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Build definitions whose import runs repository code (Gradle settings/build scripts and wrapper, Maven POMs). */
export const IMPORTED_BUILD_FILES = new Set([
  'settings.gradle',
  'settings.gradle.kts',
  'build.gradle',
  'build.gradle.kts',
  'gradlew',
  'gradlew.bat',
  'pom.xml',
]);

const MAX_DEPTH = 2;
const MAX_FOUND = 16;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'build', 'out', 'target', '.gradle']);

/**
 * The Gradle/Maven build files kotlin-lsp would import, workspace-relative: in the workspace root
 * and up to two folder levels below (repositories and their modules), bounded so a huge tree costs
 * nothing. Unreadable folders are skipped: they cannot be imported either.
 */
export function findImportedBuildFiles(workspaceReal: string): string[] {
  const found: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= MAX_FOUND) return;
      if (entry.isFile() && IMPORTED_BUILD_FILES.has(entry.name)) found.push(relative(workspaceReal, join(dir, entry.name)));
    }
    if (depth >= MAX_DEPTH) return;
    for (const entry of entries) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) visit(join(dir, entry.name), depth + 1);
    }
  };
  visit(workspaceReal, 0);
  return found.sort();
}
