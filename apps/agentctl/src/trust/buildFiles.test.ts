import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { languageDescriptor } from '@kandev/protocol';
import { findImportedBuildFiles } from './buildFiles.js';

/** The names Kotlin's untrusted rule lists (its descriptor is where they live). */
const kotlinRule = languageDescriptor('kotlin').untrusted;
const KOTLIN_BUILD_FILES = kotlinRule.kind === 'guarded' && kotlinRule.initialize.kind === 'refuse_when_build_files' ? kotlinRule.initialize.buildFiles : [];

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
    expect(findImportedBuildFiles(root, KOTLIN_BUILD_FILES)).toEqual(['gradlew', 'repoA/build.gradle', 'repoB/module/pom.xml', 'settings.gradle.kts']);
  });

  it('a Kotlin workspace without build files has nothing to import', () => {
    expect(findImportedBuildFiles(tree(['src/Main.kt']), KOTLIN_BUILD_FILES)).toEqual([]);
    expect(findImportedBuildFiles('/nonexistent-kandev', KOTLIN_BUILD_FILES)).toEqual([]);
  });

  it('looks only for the names it is given: another language lists its own', () => {
    const root = tree(['prisma.config.ts', 'db/prisma.config.ts', 'build.gradle', '.config/prisma.ts', '.hidden/prisma.config.ts']);
    expect(findImportedBuildFiles(root, ['prisma.config.ts', '.config/prisma.ts'])).toEqual(['.config/prisma.ts', 'db/prisma.config.ts', 'prisma.config.ts']);
    expect(findImportedBuildFiles(root, [])).toEqual([]);
  });
});
