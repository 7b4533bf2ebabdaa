import type { SearchHit, SearchOptions } from '@kandev/protocol';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prerequisite } from '../../../../../test/support/env.js';
import { JSON_SEARCH_LIMITS, type SearchLimits } from './limits.js';
import { parseSearchQuery, type SearchQuery } from './query.js';
import { findRipgrep, ripgrepSearch } from './ripgrep.js';
import { walkSearch } from './walker.js';

const base = mkdtempSync(join(tmpdir(), 'kandev-search-'));
const root = join(base, 'ws');
const outside = join(base, 'outside');
const rg = findRipgrep(process.env);
const plain: SearchOptions = { caseSensitive: false, wholeWord: false, regex: false };

function write(rel: string, content: string | Buffer): void {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), content);
}

beforeAll(() => {
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'needle outside\n');
  write('src/app.ts', 'const needle = 1;\nconst Needle = 2;\nconst needles = 3;\n');
  write('src/util/deep.ts', '// a needle in a haystack\n');
  write('.gitignore', 'dist/\n*.log\n');
  write('dist/bundle.js', 'needle\n');
  write('debug.log', 'needle\n');
  write('pkg/.gitignore', 'generated.ts\n');
  write('pkg/generated.ts', 'needle\n');
  write('pkg/kept.ts', 'needle();\n');
  write('.hidden/config', 'needle\n');
  write('node_modules/dep/index.js', 'needle\n');
  write('.git/HEAD', 'needle\n');
  write('image.bin', Buffer.from([110, 101, 101, 100, 108, 101, 0, 1, 2]));
  write('huge.txt', `needle\n${'x'.repeat(JSON_SEARCH_LIMITS.maxFileBytes)}`);
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function query(text: string, options: Partial<SearchOptions> = {}): SearchQuery {
  const parsed = parseSearchQuery(text, { ...plain, ...options });
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

const sorted = (hits: SearchHit[]) => [...hits].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column));

async function walker(q: SearchQuery, limits: SearchLimits = JSON_SEARCH_LIMITS) {
  const hits: SearchHit[] = [];
  const outcome = await walkSearch(root, q, limits, new AbortController().signal, (batch) => void hits.push(...batch));
  return { hits: sorted(hits), truncated: outcome.truncated };
}

async function ripgrep(q: SearchQuery, limits: SearchLimits = JSON_SEARCH_LIMITS) {
  const hits: SearchHit[] = [];
  const outcome = await ripgrepSearch(rg as string, root, q, limits, new AbortController().signal, (batch) => void hits.push(...batch));
  return { hits: sorted(hits), truncated: outcome.truncated };
}

const where = (hits: SearchHit[]) => hits.map((h) => `${h.path}:${h.line}:${h.column}`);

describe('search query validation', () => {
  it('refuses an empty, multi-line, overlong or invalid query with a message', () => {
    for (const [text, options] of [
      ['', {}],
      ['a\nb', {}],
      ['x'.repeat(257), {}],
      ['(unclosed', { regex: true }],
    ] as const) {
      const parsed = parseSearchQuery(text, { ...plain, ...options });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error.status).toBe(400);
    }
    expect(parseSearchQuery('(unclosed', plain).ok).toBe(true); // plain text: parentheses are text
  });
});

describe('the bounded walker (task hosts without ripgrep)', () => {
  it('ignores case by default, honours .gitignore at every level, skips .git, node_modules, binary, huge files and links', async () => {
    const { hits } = await walker(query('needle'));
    expect(where(hits)).toEqual(['.hidden/config:1:1', 'pkg/kept.ts:1:1', 'src/app.ts:1:7', 'src/app.ts:2:7', 'src/app.ts:3:7', 'src/util/deep.ts:1:6']);
  });

  it('case-sensitive, whole-word and regex options', async () => {
    expect(where((await walker(query('Needle', { caseSensitive: true }))).hits)).toEqual(['src/app.ts:2:7']);
    expect(where((await walker(query('needle', { wholeWord: true }))).hits)).not.toContain('src/app.ts:3:7');
    expect(where((await walker(query('needle', { wholeWord: true }))).hits)).toContain('pkg/kept.ts:1:1');
    expect(where((await walker(query('^const \\w+s =', { regex: true }))).hits)).toEqual(['src/app.ts:3:1']);
    expect((await walker(query('needle.', { regex: false }))).hits).toEqual([]);
  });

  it('stops at the hit limit and at the file limit, saying so', async () => {
    const few = await walker(query('needle'), { ...JSON_SEARCH_LIMITS, maxHits: 2 });
    expect(few).toMatchObject({ truncated: true });
    expect(few.hits).toHaveLength(2);
    const files = await walker(query('needle'), { ...JSON_SEARCH_LIMITS, maxFilesVisited: 1 });
    expect(files.truncated).toBe(true);
    expect(files.hits.length).toBeLessThanOrEqual(1);
  });

  it('an aborted search reads no further', async () => {
    const cancel = new AbortController();
    const hits: SearchHit[] = [];
    await walkSearch(root, query('needle'), JSON_SEARCH_LIMITS, cancel.signal, (batch) => {
      hits.push(...batch);
      cancel.abort();
    });
    expect(hits.length).toBe(1);
  });
});

describe.runIf(prerequisite(rg !== undefined, 'ripgrep (rg) on PATH'))('ripgrep engine', () => {
  it('answers exactly what the walker answers, for every option', async () => {
    for (const [text, options] of [
      ['needle', {}],
      ['Needle', { caseSensitive: true }],
      ['needle', { wholeWord: true }],
      ['^const \\w+s =', { regex: true }],
      ['nothing-matches-this', {}],
    ] as const) {
      const q = query(text, options);
      expect((await ripgrep(q)).hits, `${text} ${JSON.stringify(options)}`).toEqual((await walker(q)).hits);
    }
  });

  it('stops at the hit limit', async () => {
    const few = await ripgrep(query('needle'), { ...JSON_SEARCH_LIMITS, maxHits: 2 });
    expect(few.truncated).toBe(true);
    expect(few.hits).toHaveLength(2);
  });

  it('an abort kills rg while it still has output to write', async () => {
    const big = mkdtempSync(join(tmpdir(), 'kandev-search-big-'));
    try {
      const line = 'needle '.repeat(20);
      for (let i = 0; i < 300; i++) writeFileSync(join(big, `f${i}.txt`), `${line}\n`.repeat(200));
      const cancel = new AbortController();
      let child: ChildProcess | undefined;
      let batches = 0;
      await ripgrepSearch(
        rg as string,
        big,
        query('needle'),
        { ...JSON_SEARCH_LIMITS, maxHits: 10_000_000 },
        cancel.signal,
        () => {
          batches++;
          cancel.abort();
        },
        (c) => (child = c),
      );
      expect(batches).toBe(1);
      expect(child?.signalCode).toBe('SIGKILL');
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });

  it('a pattern ripgrep cannot compile is refused, not answered empty', async () => {
    // JavaScript accepts look-behind; ripgrep's regex engine does not.
    await expect(ripgrep(query('(?<=const )needle', { regex: true }))).rejects.toThrow(/look-?around|look-?behind|not supported/i);
  });
});
