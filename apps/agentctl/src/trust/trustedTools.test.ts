import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findTrustedTools, packageFileNextTo } from './trustedTools.js';

const repoRoot = resolve(import.meta.dirname, '../../../..');
const launcher = join(repoRoot, 'node_modules/.bin/typescript-language-server');
const scratch = mkdtempSync(join(tmpdir(), 'kandev-trusted-tools-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function program(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('trusted tool pins', () => {
  it('finds a file of the package the launcher itself resolves (typescript-language-server: its tsserver.js)', () => {
    expect(packageFileNextTo(launcher, 'typescript', 'lib/tsserver.js')).toBe(realpathSync(join(repoRoot, 'node_modules/typescript/lib/tsserver.js')));
    expect(packageFileNextTo(launcher, 'typescript', 'lib/no-such-file.js')).toBeUndefined();
    expect(packageFileNextTo(launcher, 'no-such-package-kandev', 'index.js')).toBeUndefined();
    expect(packageFileNextTo('/nonexistent/typescript-language-server', 'typescript', 'lib/tsserver.js')).toBeUndefined();
  });

  it('reports each tool under the id its rule gives it, never one inside the workspace', () => {
    expect(findTrustedTools('typescript', launcher, {}, '/elsewhere', 'linux').tools?.tsserver).toMatch(/typescript\/lib\/tsserver\.js$/);
    expect(findTrustedTools('typescript', launcher, {}, repoRoot, 'linux')).toEqual({});
    expect(findTrustedTools('go', launcher, {}, '/elsewhere', 'linux')).toEqual({});
  });

  it("pins python to the first of its candidates on the (guarded) PATH, in the rule's order", () => {
    const onlyPython = join(scratch, 'only-python');
    const both = join(scratch, 'both');
    const python = program(onlyPython, 'python');
    program(both, 'python');
    const python3 = program(both, 'python3');
    expect(findTrustedTools('python', 'pyright-langserver', { PATH: onlyPython }, '/elsewhere', 'linux')).toEqual({ tools: { python } });
    expect(findTrustedTools('python', 'pyright-langserver', { PATH: `${onlyPython}:${both}` }, '/elsewhere', 'linux').tools?.python).toBe(python3);
    expect(findTrustedTools('python', 'pyright-langserver', { PATH: '/nonexistent' }, '/elsewhere', 'linux')).toEqual({});
  });

  it('lists the build files a refuse_when_build_files rule names (empty when there are none)', () => {
    const gradle = join(scratch, 'gradle');
    mkdirSync(join(gradle, 'app'), { recursive: true });
    writeFileSync(join(gradle, 'app', 'build.gradle.kts'), '');
    expect(findTrustedTools('kotlin', 'kotlin-lsp', {}, gradle, 'linux')).toEqual({ buildFiles: ['app/build.gradle.kts'] });
    expect(findTrustedTools('kotlin', 'kotlin-lsp', {}, join(scratch, 'only-python'), 'linux')).toEqual({ buildFiles: [] });
  });
});
