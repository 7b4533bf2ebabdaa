import type { FileEntry } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { indexWorkspaceFiles } from './fileIndex.js';

const tree: Record<string, FileEntry[]> = {
  '': [
    { name: 'src', path: 'src', type: 'directory' },
    { name: 'node_modules', path: 'node_modules', type: 'directory' },
    { name: 'broken', path: 'broken', type: 'directory' },
    { name: 'README.md', path: 'README.md', type: 'file' },
  ],
  src: [
    { name: 'deep', path: 'src/deep', type: 'directory' },
    { name: 'main.ts', path: 'src/main.ts', type: 'file' },
  ],
  'src/deep': [{ name: 'x.go', path: 'src/deep/x.go', type: 'file' }],
  node_modules: [{ name: 'junk.js', path: 'node_modules/junk.js', type: 'file' }],
};

const list = async (folder: string) => {
  if (folder === 'broken') throw new Error('403');
  return tree[folder] ?? [];
};

describe('indexWorkspaceFiles', () => {
  it('walks every folder but dependencies, skipping folders that fail to list', async () => {
    const listed: string[] = [];
    const result = await indexWorkspaceFiles(async (f) => {
      listed.push(f);
      return list(f);
    });
    expect(result).toEqual({ paths: ['README.md', 'src/deep/x.go', 'src/main.ts'], truncated: false });
    expect(listed).not.toContain('node_modules');
  });

  it('stops at its bound and says so', async () => {
    const result = await indexWorkspaceFiles(list, { maxFiles: 2 });
    expect(result.truncated).toBe(true);
    expect(result.paths.length).toBe(2);
  });
});
