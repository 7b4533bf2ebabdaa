import { describe, expect, it } from 'vitest';
import { IgnoreScope } from './gitignore.js';

describe('gitignore rules for the search walker', () => {
  const root = IgnoreScope.empty().with(
    '',
    ['# build output', 'dist/', '*.log', '!keep.log', '/top.txt', 'docs/**/*.tmp', 'a?c', '[bc]ache', '\\#literal', ''].join('\n'),
  );

  it('a trailing slash ignores directories only, at any depth', () => {
    expect(root.ignores('dist', true)).toBe(true);
    expect(root.ignores('pkg/dist', true)).toBe(true);
    expect(root.ignores('dist', false)).toBe(false);
  });

  it('globs match a name at any depth; the last matching rule wins, so ! brings a file back', () => {
    expect(root.ignores('server.log', false)).toBe(true);
    expect(root.ignores('deep/er/server.log', false)).toBe(true);
    expect(root.ignores('keep.log', false)).toBe(false);
    expect(root.ignores('abc', false)).toBe(true);
    expect(root.ignores('abbc', false)).toBe(false);
    expect(root.ignores('cache', false)).toBe(true);
    expect(root.ignores('#literal', false)).toBe(true);
  });

  it('a leading or inner slash anchors to the folder of the .gitignore; ** spans folders', () => {
    expect(root.ignores('top.txt', false)).toBe(true);
    expect(root.ignores('sub/top.txt', false)).toBe(false);
    expect(root.ignores('docs/a/b/x.tmp', false)).toBe(true);
    expect(root.ignores('docs/x.tmp', false)).toBe(true);
    expect(root.ignores('other/docs/x.tmp', false)).toBe(false);
  });

  it('a nested .gitignore applies below its folder only, after its ancestors', () => {
    const nested = root.with('pkg', '/generated.ts\n!important.log\n');
    expect(nested.ignores('pkg/generated.ts', false)).toBe(true);
    expect(nested.ignores('generated.ts', false)).toBe(false);
    expect(nested.ignores('pkg/important.log', false)).toBe(false);
    expect(nested.ignores('important.log', false)).toBe(true);
  });
});
