import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGE_DESCRIPTORS, type LanguageDescriptor } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';

/**
 * A language is data (docs/adding-a-language.md): its descriptor and its locale strings, and no
 * app file names it, comments included (a comment that names one is where the next special case
 * starts). The twelve languages Kandev served before the descriptors still appear in the apps'
 * comments and as the names of install and probe kinds (`go install`, the `typescript` package a
 * launcher path resolves); every language added since must not.
 */
const NAMED_BEFORE_DESCRIPTORS = new Set(['typescript', 'python', 'go', 'rust', 'kotlin', 'json', 'yaml', 'shell', 'dockerfile', 'css', 'html', 'cpp']);

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Source, style and build files of every app; tests, test support and the locale catalogs left out. */
function appFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (['node_modules', 'dist', 'dist-test', '.tsbuild', 'locales', 'testing'].includes(name)) return [];
    if (statSync(path).isDirectory()) return appFiles(path);
    return /\.(ts|tsx|mts|mjs|css|html)$/.test(name) && !/\.test\.tsx?$/.test(name) && name !== 'testkit.ts' ? [path] : [];
  });
}

/** How an app could name a language: its id, its name, its server's launcher and npm packages. */
function namesOf(descriptor: LanguageDescriptor, shared: ReadonlySet<string>): string[] {
  const packages = descriptor.install.kind === 'npm' ? descriptor.install.packages.map((p) => p.replace(/(?<=.)@[^@/]*$/, '')) : [];
  return [descriptor.id, descriptor.catalog.name, descriptor.server.binary, ...packages].filter((name) => !shared.has(name.toLowerCase()));
}

/**
 * A whole word: not part of a longer name (`vim` in `nvim`, `erb` in `verb`) and not a file's
 * extension (`config.toml` is a file of the rust descriptor's toolchain, not the TOML language).
 */
const wordPattern = (name: string) => new RegExp(`(?<![\\w.-])${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w-])`, 'i');

describe('no app names a language added as data', () => {
  it('no app file spells the id, name, launcher or npm package of a language added since the first twelve', () => {
    const earlier = LANGUAGE_DESCRIPTORS.filter((d) => NAMED_BEFORE_DESCRIPTORS.has(d.id));
    expect(earlier.map((d) => d.id).sort()).toEqual([...NAMED_BEFORE_DESCRIPTORS].sort());
    // A package an earlier language also installs (TypeScript, which Vue and Astro load) names that one.
    const shared = new Set(earlier.flatMap((d) => [d.id, ...(d.install.kind === 'npm' ? d.install.packages.map((p) => p.replace(/(?<=.)@[^@/]*$/, '')) : [])]));
    const added = LANGUAGE_DESCRIPTORS.filter((d) => !NAMED_BEFORE_DESCRIPTORS.has(d.id));
    expect(added.length).toBeGreaterThanOrEqual(10);

    const files = ['agentctl', 'backend', 'web'].flatMap((app) => appFiles(join(repo, 'apps', app)));
    expect(files.length).toBeGreaterThan(300);
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      for (const descriptor of added) {
        for (const name of namesOf(descriptor, shared)) {
          const pattern = wordPattern(name);
          lines.forEach((line, index) => {
            if (pattern.test(line)) found.push(`${relative(repo, file)}:${index + 1}: ${descriptor.id} (${name}): ${line.trim()}`);
          });
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('the word rule finds a name in a comment or a literal, and not inside a longer word or as an extension', () => {
    const vim = wordPattern('vim');
    expect(vim.test('// as `vim` does')).toBe(true);
    expect(vim.test("if (id === 'vim')")).toBe(true);
    expect(vim.test('the Vim script')).toBe(true);
    expect(vim.test('nvim and neovim')).toBe(false);
    expect(vim.test('a file.vim')).toBe(false);
    expect(wordPattern('vue-language-server').test('launches vue-language-server --stdio')).toBe(true);
  });
});
