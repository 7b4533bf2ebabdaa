import { describe, expect, it } from 'vitest';
import type { FileTreeSnapshot } from './fileTree.js';
import { treeKeyAction, typeAhead, visibleTreeRows } from './treeRows.js';

const snapshot: FileTreeSnapshot = {
  listings: new Map([
    [
      '',
      {
        state: 'loaded',
        entries: [
          { name: 'src', path: 'src', type: 'directory' },
          { name: 'test', path: 'test', type: 'directory' },
          { name: 'README.md', path: 'README.md', type: 'file' },
        ],
      },
    ],
    [
      'src',
      {
        state: 'loaded',
        entries: [
          { name: 'main.ts', path: 'src/main.ts', type: 'file' },
          { name: 'math.ts', path: 'src/math.ts', type: 'file' },
        ],
      },
    ],
    ['test', { state: 'loading' }],
  ]),
  expanded: new Set(['src']),
};
const rows = visibleTreeRows(snapshot);

describe('Files tree rows and keys', () => {
  it('lists visible rows in order with depth and set positions', () => {
    expect(rows.map((r) => `${r.depth}:${r.path}`)).toEqual(['0:src', '1:src/main.ts', '1:src/math.ts', '0:test', '0:README.md']);
    expect(rows[0]).toMatchObject({ expanded: true, position: 1, siblings: 3 });
    expect(rows[2]).toMatchObject({ parent: 'src', position: 2, siblings: 2 });
  });

  it('moves with arrows, Home and End; Right enters or expands, Left collapses or goes up', () => {
    expect(treeKeyAction(rows, 'src', 'ArrowDown')).toEqual({ kind: 'focus', path: 'src/main.ts' });
    expect(treeKeyAction(rows, 'src', 'ArrowUp')).toEqual({ kind: 'focus', path: 'src' });
    expect(treeKeyAction(rows, 'src/math.ts', 'End')).toEqual({ kind: 'focus', path: 'README.md' });
    expect(treeKeyAction(rows, 'README.md', 'Home')).toEqual({ kind: 'focus', path: 'src' });
    expect(treeKeyAction(rows, 'src', 'ArrowRight')).toEqual({ kind: 'focus', path: 'src/main.ts' });
    expect(treeKeyAction(rows, 'test', 'ArrowRight')).toEqual({ kind: 'expand', path: 'test' });
    expect(treeKeyAction(rows, 'src', 'ArrowLeft')).toEqual({ kind: 'collapse', path: 'src' });
    expect(treeKeyAction(rows, 'src/math.ts', 'ArrowLeft')).toEqual({ kind: 'focus', path: 'src' });
    expect(treeKeyAction(rows, 'src/math.ts', 'Enter')).toEqual({ kind: 'open', path: 'src/math.ts' });
    expect(treeKeyAction(rows, 'test', ' ')).toEqual({ kind: 'expand', path: 'test' });
    expect(treeKeyAction([], undefined, 'ArrowDown')).toEqual({ kind: 'none' });
  });

  it('type-ahead finds the next name with the prefix, cycling on one letter', () => {
    expect(typeAhead(rows, 'src', 'm')).toBe('src/main.ts');
    expect(typeAhead(rows, 'src/main.ts', 'm')).toBe('src/math.ts');
    expect(typeAhead(rows, 'src/math.ts', 'm')).toBe('src/main.ts');
    expect(typeAhead(rows, 'src/main.ts', 'mat')).toBe('src/math.ts');
    expect(typeAhead(rows, 'src', 'r')).toBe('README.md');
    expect(typeAhead(rows, 'src', 'zz')).toBeUndefined();
  });
});
