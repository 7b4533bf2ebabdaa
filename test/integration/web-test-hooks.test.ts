import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot, webDist, webTestDist } from '../support/build.js';

/** Every text file a bundle folder serves (precompressed siblings carry the same bytes). */
function servedText(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(js|mjs|html|css|map)$/.test(entry.name)) files.set(relative(folder, path), readFileSync(path, 'utf8'));
    }
  };
  walk(folder);
  return files;
}

const withHooks = (files: Map<string, string>) => [...files].filter(([, text]) => text.includes('__kandev')).map(([name]) => name);

describe('window test hooks exist only in the test build', () => {
  beforeAll(() => {
    ensureBuilt('web');
    ensureBuilt('web-test');
  }, 600_000);

  it('the production bundle contains no __kandev anywhere', () => {
    const files = servedText(join(repoRoot, webDist));
    expect(files.size).toBeGreaterThan(0);
    expect(withHooks(files)).toEqual([]);
  });

  it('the test build does expose them (so the check above can fail)', () => {
    expect(withHooks(servedText(join(repoRoot, webTestDist))).length).toBeGreaterThan(0);
  });
});
