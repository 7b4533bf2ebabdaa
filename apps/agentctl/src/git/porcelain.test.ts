import { describe, expect, it } from 'vitest';
import { parseNumstat, parseStatusV2 } from './porcelain.js';

describe('git porcelain v2 and numstat', () => {
  it('reads branch, head and every kind of change', () => {
    const text = [
      '# branch.oid 0123abcd',
      '# branch.head main',
      '1 .M N... 100644 100644 100644 aaa bbb src/a b.ts',
      '1 A. N... 000000 100644 100644 000 ccc new.ts',
      '1 .D N... 100644 100644 000000 ddd ddd gone.ts',
      '2 R. N... 100644 100644 100644 eee eee R100 to.ts',
      'from.ts',
      '? notes.txt',
      '',
    ].join('\0');
    expect(parseStatusV2(text)).toEqual({
      branch: 'main',
      head: '0123abcd',
      files: [
        { path: 'src/a b.ts', status: 'modified' },
        { path: 'new.ts', status: 'added' },
        { path: 'gone.ts', status: 'deleted' },
        { path: 'to.ts', status: 'renamed', from: 'from.ts' },
        { path: 'notes.txt', status: 'untracked' },
      ],
    });
  });

  it('an unborn branch has no head; a detached HEAD no branch', () => {
    expect(parseStatusV2('# branch.oid (initial)\0# branch.head main\0')).toMatchObject({ head: null, branch: 'main' });
    expect(parseStatusV2('# branch.oid abc\0# branch.head (detached)\0')).toMatchObject({ head: 'abc', branch: null });
  });

  it('numstat: counts by path, a rename under its new path, binary files absent', () => {
    const counts = parseNumstat(['3\t1\tsrc/a.ts', '-\t-\tlogo.png', '2\t2\t', 'old.ts', 'new.ts', ''].join('\0'));
    expect([...counts]).toEqual([
      ['src/a.ts', { added: 3, deleted: 1 }],
      ['new.ts', { added: 2, deleted: 2 }],
    ]);
  });
});
