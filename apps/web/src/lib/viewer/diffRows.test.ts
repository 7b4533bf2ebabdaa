import { describe, expect, it } from 'vitest';
import { diffRows } from './diffRows.js';

describe('diffRows', () => {
  it('numbers each side and marks what only HEAD or only the disk has', () => {
    expect(diffRows('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([
      { kind: 'same', headLine: 1, line: 1, text: 'a' },
      { kind: 'removed', headLine: 2, text: 'b' },
      { kind: 'added', line: 2, text: 'B' },
      { kind: 'same', headLine: 3, line: 3, text: 'c' },
      { kind: 'added', line: 4, text: 'd' },
    ]);
  });

  it('shows a new file as all added and a deleted one as all removed', () => {
    expect(diffRows('', 'x\ny')?.map((r) => r.kind)).toEqual(['added', 'added']);
    expect(diffRows('x\ny\n', '')?.map((r) => r.kind)).toEqual(['removed', 'removed']);
  });

  it('ignores line endings and a missing final newline', () => {
    expect(diffRows('a\r\nb\n', 'a\nb')?.every((r) => r.kind === 'same')).toBe(true);
  });

  it('cuts a long line into rows, numbered once', () => {
    const rows = diffRows('', `${'x'.repeat(1500)}\n`) ?? [];
    expect(rows.map((r) => [r.line, r.text.length])).toEqual([
      [1, 1000],
      [undefined, 500],
    ]);
  });
});
