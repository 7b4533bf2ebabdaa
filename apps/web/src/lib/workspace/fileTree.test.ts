import { describe, expect, it } from 'vitest';
import type { FileEntry } from '@kandev/protocol';
import { ancestorDirectories, FileTreeModel } from './fileTree.js';

describe('Files tree', () => {
  it('lists the ancestors of a path', () => {
    expect(ancestorDirectories('a/b/c.ts')).toEqual(['', 'a', 'a/b']);
    expect(ancestorDirectories('top.ts')).toEqual(['']);
  });

  it('S35 revealing a target nested beneath unloaded folders loads and expands every ancestor', async () => {
    const listed: string[] = [];
    const tree = new FileTreeModel(async (folder): Promise<FileEntry[]> => {
      listed.push(folder);
      return [];
    });
    await tree.load('');
    await tree.reveal('pkg/internal/deep/x.go');
    expect(listed).toEqual(['', 'pkg', 'pkg/internal', 'pkg/internal/deep']);
    expect([...tree.getSnapshot().expanded].sort()).toEqual(['pkg', 'pkg/internal', 'pkg/internal/deep']);
    expect(tree.getSnapshot().listings.get('pkg/internal/deep')).toEqual({ state: 'loaded', entries: [] });
  });

  it('loads a folder once, retries after an error, and collapses on a second toggle', async () => {
    let calls = 0;
    let fail = true;
    const tree = new FileTreeModel(async () => {
      calls++;
      if (fail) throw new Error('offline');
      return [{ name: 'a', path: 'd/a', type: 'file' }];
    });
    await tree.toggle('d');
    expect(tree.getSnapshot().listings.get('d')).toEqual({ state: 'error' });
    fail = false;
    await tree.toggle('d');
    await tree.toggle('d');
    expect(tree.getSnapshot().listings.get('d')).toMatchObject({ state: 'loaded' });
    expect(tree.getSnapshot().expanded.has('d')).toBe(true);
    await tree.load('d');
    expect(calls).toBe(2);
  });
});
