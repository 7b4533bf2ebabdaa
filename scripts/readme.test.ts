import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README is what a newcomer reads first, in about two minutes: what Kandev is, the two
 * commands, the settings, where to go next. Figures belong to docs/performance.md and
 * bench/results/ (they go stale in a README nobody re-measures); the rest to the docs it points to.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/** About two minutes of reading, tables and commands included. */
const MAX_WORDS = 800;

/**
 * A benchmark figure: a ratio (`1.37x`), a percentile, a timing in ms, a throughput. (A setting's
 * default in seconds or minutes is no figure.)
 */
const FIGURE = /\b\d+(\.\d+)?x\b|\bp(50|95|99)\b|\b\d+(\.\d+)? ?(ms|µs)\b|\b\d+ ?(KiB|MiB)\/s\b/;

describe('README.md', () => {
  it('opens with the two commands', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
    expect(
      firstBlock
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('#')[0]!.trim()),
    ).toEqual(['npm start', 'npm test']);
  });

  it(`reads in about two minutes (at most ${MAX_WORDS} words)`, () => {
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(MAX_WORDS);
  });

  it('carries no benchmark figure', () => {
    const lines = readme.split('\n').filter((line) => FIGURE.test(line));
    expect(lines).toEqual([]);
    expect(FIGURE.test('relay 1.37x of two raw hops, p95 under 130 ms')).toBe(true);
    expect(FIGURE.test('`KANDEV_LSP_REQUEST_TIMEOUT_MS` | 30 s')).toBe(false);
  });

  it('has its settings and points to every page of docs/, each of which exists', () => {
    expect(readme).toMatch(/^## Settings$/m);
    const named = new Set([...readme.matchAll(/`docs\/([\w-]+\.md)`/g)].map((m) => m[1]!));
    for (const page of named) expect(existsSync(join(repo, 'docs', page)), page).toBe(true);
    expect(
      readdirSync(join(repo, 'docs'))
        .filter((page) => page.endsWith('.md'))
        .filter((page) => !named.has(page)),
    ).toEqual([]);
  });
});
