import { describe, expect, it } from 'vitest';
import { baseName, fileActionEdit, joinPath, nameProblem, parentFolder } from './fileActions.js';

describe('Files panel actions as workspace edits', () => {
  it('paths: parent folder, base name and join, with the root as the empty folder', () => {
    expect(parentFolder('src/lib/a.ts')).toBe('src/lib');
    expect(parentFolder('a.ts')).toBe('');
    expect(baseName('src/lib/a.ts')).toBe('a.ts');
    expect(joinPath('', 'a.ts')).toBe('a.ts');
    expect(joinPath('src', 'lib/a.ts')).toBe('src/lib/a.ts');
  });

  it('a name is refused with the reason a person can act on', () => {
    const siblings = ['main.ts', 'lib'];
    expect(nameProblem('', { nested: true })).toBe('empty');
    expect(nameProblem('   ', { nested: true })).toBe('empty');
    expect(nameProblem(' a.ts', { nested: true })).toBe('invalid');
    expect(nameProblem('a\\b.ts', { nested: true })).toBe('invalid');
    expect(nameProblem('lib/a.ts', { nested: false })).toBe('separator');
    expect(nameProblem('lib//a.ts', { nested: true })).toBe('separator');
    expect(nameProblem('/a.ts', { nested: true })).toBe('separator');
    expect(nameProblem('lib/', { nested: true })).toBe('separator');
    expect(nameProblem('..', { nested: false })).toBe('dots');
    expect(nameProblem('lib/../../etc', { nested: true })).toBe('dots');
    expect(nameProblem('main.ts', { nested: true, siblings })).toBe('exists');
    expect(nameProblem('main.ts', { nested: false, siblings, current: 'main.ts' })).toBe('unchanged');
    expect(nameProblem('lib', { nested: false, siblings, current: 'main.ts' })).toBe('exists');
    // Into a folder that exists, or where the folder is not listed yet: left to the task host to judge.
    expect(nameProblem('lib/util.ts', { nested: true, siblings })).toBeUndefined();
    expect(nameProblem('main.ts', { nested: true })).toBeUndefined();
    expect(nameProblem('greeting.ts', { nested: false, siblings, current: 'main.ts' })).toBeUndefined();
  });

  it('each action is one resource operation on server URIs that never overwrites, a folder delete recursive', () => {
    const root = 'file:///work/my%20repo';
    expect(fileActionEdit({ kind: 'create', path: 'src/new file.ts' }, root)).toEqual({
      documentChanges: [{ kind: 'create', uri: 'file:///work/my%20repo/src/new%20file.ts', options: { overwrite: false, ignoreIfExists: false } }],
    });
    expect(fileActionEdit({ kind: 'rename', from: 'src/a.ts', to: 'src/b.ts', directory: false }, `${root}/`)).toEqual({
      documentChanges: [
        {
          kind: 'rename',
          oldUri: 'file:///work/my%20repo/src/a.ts',
          newUri: 'file:///work/my%20repo/src/b.ts',
          options: { overwrite: false, ignoreIfExists: false },
        },
      ],
    });
    expect(fileActionEdit({ kind: 'delete', path: 'src', directory: true }, root)).toEqual({
      documentChanges: [{ kind: 'delete', uri: 'file:///work/my%20repo/src', options: { recursive: true, ignoreIfNotExists: false } }],
    });
    expect(fileActionEdit({ kind: 'delete', path: 'a.ts', directory: false }, root).documentChanges).toEqual([
      { kind: 'delete', uri: 'file:///work/my%20repo/a.ts', options: { recursive: false, ignoreIfNotExists: false } },
    ]);
  });
});
