import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rankPaths } from './fuzzy.js';

describe('fuzzy quick open', () => {
  it('matches characters in order, case-insensitively, and reports where', () => {
    expect(fuzzyMatch('mts', 'src/main.ts')?.indexes).toEqual([4, 9, 10]);
    expect(fuzzyMatch('MAIN', 'src/main.ts')).toBeDefined();
    expect(fuzzyMatch('xyz', 'src/main.ts')).toBeUndefined();
    expect(fuzzyMatch('tsm', 'src/main.ts')).toBeUndefined();
  });

  it('ranks file-name and segment-start hits above scattered ones', () => {
    const ranked = rankPaths('main', ['docs/domain/information.md', 'src/main.ts', 'lib/remaining.go']).map((m) => m.path);
    expect(ranked[0]).toBe('src/main.ts');
    expect(rankPaths('ut', ['src/util.ts', 'src/output.ts']).map((m) => m.path)).toEqual(['src/util.ts', 'src/output.ts']);
  });

  it('an empty query lists everything; the limit holds', () => {
    expect(rankPaths('', ['b', 'a', 'c'], 2).map((m) => m.path)).toEqual(['a', 'b']);
  });
});
