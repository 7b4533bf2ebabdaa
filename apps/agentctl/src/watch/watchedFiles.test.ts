import { describe, expect, it } from 'vitest';
import { WatchedFilesMatcher } from './watchedFiles.js';

const root = '/work/ws';

describe('WatchedFilesMatcher (LSP FileSystemWatcher)', () => {
  it('matches a string glob against the absolute path, with braces', () => {
    const m = new WatchedFilesMatcher([{ globPattern: '**/*.{go,mod,sum}' }], root);
    expect(m.matches('util/util.go', 'changed')).toBe(true);
    expect(m.matches('go.mod', 'created')).toBe(true);
    expect(m.matches('README.md', 'changed')).toBe(false);
  });

  it('matches a RelativePattern below its base only (a WorkspaceFolder or a URI base)', () => {
    const m = new WatchedFilesMatcher(
      [
        { globPattern: { baseUri: { uri: 'file:///work/ws/app', name: 'app' }, pattern: '**/*.py' } },
        { globPattern: { baseUri: 'file:///work/ws/conf', pattern: '*.json' } },
      ],
      root,
    );
    expect(m.matches('app/util.py', 'changed')).toBe(true);
    expect(m.matches('other/util.py', 'changed')).toBe(false);
    expect(m.matches('conf/a.json', 'changed')).toBe(true);
    expect(m.matches('conf/deep/a.json', 'changed')).toBe(false);
  });

  it('honours kind bits: a watcher of creations and deletions does not hear changes', () => {
    const m = new WatchedFilesMatcher([{ globPattern: '**/*.ts', kind: 1 | 4 }], root);
    expect(m.matches('src/a.ts', 'created')).toBe(true);
    expect(m.matches('src/a.ts', 'deleted')).toBe(true);
    expect(m.matches('src/a.ts', 'changed')).toBe(false);
  });

  it('a relative string glob also matches the workspace-relative path; bad watchers are ignored', () => {
    const m = new WatchedFilesMatcher([{ globPattern: 'src/*.ts' }, { globPattern: 42 }, null, { globPattern: { pattern: '*' } }], root);
    expect(m.size).toBe(1);
    expect(m.matches('src/a.ts', 'changed')).toBe(true);
    expect(m.matches('lib/a.ts', 'changed')).toBe(false);
  });
});
