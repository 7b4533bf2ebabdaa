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

  it('reports the paths found so far as listings arrive, before the walk ends (quick open shows first results)', async () => {
    const seen: string[][] = [];
    let release: () => void = () => undefined;
    const deepHeld = new Promise<void>((r) => (release = r));
    const walk = indexWorkspaceFiles(
      async (f) => {
        if (f === 'src/deep') await deepHeld;
        return list(f);
      },
      { onProgress: (paths) => seen.push([...paths]) },
    );
    await new Promise((r) => setTimeout(r, 0));
    expect(seen.at(-1)).toEqual(expect.arrayContaining(['README.md', 'src/main.ts']));
    expect(seen.flat()).not.toContain('src/deep/x.go');
    release();
    expect((await walk).paths).toContain('src/deep/x.go');
  });
});
