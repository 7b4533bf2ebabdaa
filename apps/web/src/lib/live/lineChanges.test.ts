import { describe, expect, it } from 'vitest';
import { lineChanges } from './lineChanges.js';

describe('lineChanges (gutter marks against HEAD)', () => {
  const head = 'a\nb\nc\nd\ne\n';

  it('no change, no marks; line endings and a final newline do not count', () => {
    expect(lineChanges(head, head)).toEqual([]);
    expect(lineChanges(head, 'a\r\nb\r\nc\r\nd\r\ne\r\n')).toEqual([]);
    expect(lineChanges(head, 'a\nb\nc\nd\ne')).toEqual([]);
  });

  it('added, changed and deleted runs at the lines of the current text', () => {
    expect(lineChanges(head, 'a\nnew1\nnew2\nb\nc\nd\ne\n')).toEqual([{ kind: 'added', startLine: 2, endLine: 3 }]);
    expect(lineChanges(head, 'a\nB\nc\nd\ne\n')).toEqual([{ kind: 'modified', startLine: 2, endLine: 2 }]);
    expect(lineChanges(head, 'a\nd\ne\n')).toEqual([{ kind: 'deleted', line: 2 }]);
    expect(lineChanges(head, 'a\nb\nc\n')).toEqual([{ kind: 'deleted', line: 3 }]);
    expect(lineChanges(head, 'A\nb\nc\nd\ne\nf\n')).toEqual([
      { kind: 'modified', startLine: 1, endLine: 1 },
      { kind: 'added', startLine: 6, endLine: 6 },
    ]);
  });

  it('a new file is all added', () => {
    expect(lineChanges('', 'x\ny\n')).toEqual([{ kind: 'added', startLine: 1, endLine: 2 }]);
  });
});
