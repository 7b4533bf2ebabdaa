import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportedBuildFiles } from './buildFiles.js';

function tree(files: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'kandev-build-files-'));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

describe('build files kotlin-lsp would import', () => {
  it('finds Gradle and Maven definitions at the root and two levels down, not deeper and not in skipped folders', () => {
    const root = tree([
      'settings.gradle.kts',
      'gradlew',
      'repoA/build.gradle',
      'repoB/module/pom.xml',
      'a/b/c/build.gradle.kts',
      'node_modules/x/build.gradle',
      '.hidden/pom.xml',
      'src/Main.kt',
    ]);
    expect(findImportedBuildFiles(root)).toEqual(['gradlew', 'repoA/build.gradle', 'repoB/module/pom.xml', 'settings.gradle.kts']);
  });

  it('a Kotlin workspace without build files has nothing to import', () => {
    expect(findImportedBuildFiles(tree(['src/Main.kt']))).toEqual([]);
    expect(findImportedBuildFiles('/nonexistent-kandev')).toEqual([]);
  });
});
