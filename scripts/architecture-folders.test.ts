import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md §2 ("Where things are") answers "where is X done" with one line a folder:
 * every folder of every app and package must be on it, so a folder added without its line is
 * caught here rather than by the next newcomer who looks for it.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SKIPPED = new Set(['node_modules', '.tsbuild', 'dist', 'dist-test']);

/** Every folder under `apps/` and `packages/`, repository-relative, build output left out. */
function foldersUnder(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('dist'))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      return [path, ...foldersUnder(path)];
    });
}

/** The text of §2, and within it each app's table (from its `**apps/<name>**` heading to the next). */
function sectionTwo(doc: string): { whole: string; app(name: string): string } {
  const whole = doc.slice(doc.indexOf('## 2.'), doc.indexOf('## 3.'));
  return {
    whole,
    app(name) {
      const start = whole.indexOf(`**apps/${name}**`);
      if (start < 0) return '';
      const next = whole.indexOf('\n**', start + 1);
      return whole.slice(start, next < 0 ? undefined : next);
    },
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The folders §2 does not list (a nested folder may be named as a word on its parent's line). */
function unlisted(folders: readonly string[], doc: string): string[] {
  const section = sectionTwo(doc);
  // `testing/` folders are covered once for all by the section's opening rule.
  const testingRule = /a `testing\/` folder holds support that only tests import/.test(section.whole);
  return folders.filter((folder) => {
    const parts = folder.split('/');
    if (parts.length === 1) return false;
    if (parts[0] === 'packages') return parts.length > 2 && !new RegExp(`\`${escape(folder)}(/|\`)`).test(section.whole);
    const table = section.app(parts[1]!);
    const inSrc = parts.slice(3);
    if (inSrc.length === 0) return !table.includes('`src/`');
    const path = inSrc.join('/');
    if (table.includes(`\`${path}/`)) return false;
    const leaf = inSrc.at(-1)!;
    if (leaf === 'testing' && testingRule) return false;
    if (inSrc.length === 1) return true;
    const parent = inSrc.slice(0, -1).join('/');
    const onParentLine = table.split('\n').some((line) => line.includes(`\`${parent}/`) && new RegExp(`(^|[\\s\`(,])${escape(leaf)}(/|[\\s\`),])`).test(line));
    return !onParentLine;
  });
}

describe('docs/architecture.md §2, the folder map', () => {
  const doc = readFileSync(join(repo, 'docs/architecture.md'), 'utf8');

  it('lists every folder of every app and package', () => {
    const folders = [...foldersUnder('apps'), ...foldersUnder('packages')];
    expect(folders.length).toBeGreaterThan(90);
    expect(unlisted(folders, doc)).toEqual([]);
  });

  it('a folder nobody listed is reported, at any depth and in the packages', () => {
    expect(unlisted(['apps/backend/src/nowhere', 'apps/web/src/lib/lsp/nowhere', 'packages/kit/src/nowhere', 'apps/agentctl/src/files'], doc)).toEqual([
      'apps/backend/src/nowhere',
      'apps/web/src/lib/lsp/nowhere',
      'packages/kit/src/nowhere',
    ]);
  });
});
