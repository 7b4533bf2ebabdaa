import { describe, expect, it } from 'vitest';
import { MAX_ROW_CHARS, viewerRows } from './viewerRows.js';

describe('read-only viewer rows', () => {
  it('one row per line, CRLF or LF, the empty line after a final newline included', () => {
    expect(viewerRows('a\r\nb\n')).toEqual([
      { line: 1, text: 'a', continued: false },
      { line: 2, text: 'b', continued: false },
      { line: 3, text: '', continued: false },
    ]);
  });

  it('a line longer than the row limit becomes pieces of at most the limit, numbered once, whole when joined', () => {
    const long = 'x'.repeat(MAX_ROW_CHARS * 2 + 5);
    const rows = viewerRows(`short\n${long}\nend`);
    expect(rows.map((r) => [r.line, r.text.length, r.continued])).toEqual([
      [1, 5, false],
      [2, MAX_ROW_CHARS, false],
      [2, MAX_ROW_CHARS, true],
      [2, 5, true],
      [3, 3, false],
    ]);
    expect(
      rows
        .filter((r) => r.line === 2)
        .map((r) => r.text)
        .join(''),
    ).toBe(long);
  });

  it('never cuts between the halves of a surrogate pair', () => {
    const text = `${'a'.repeat(3)}😀${'b'.repeat(4)}`;
    const rows = viewerRows(text, 4);
    expect(rows.map((r) => r.text)).toEqual(['aaa', '😀bb', 'bb']);
    expect(rows.every((r) => !/[\ud800-\udbff]$/.test(r.text))).toBe(true);
  });
});
