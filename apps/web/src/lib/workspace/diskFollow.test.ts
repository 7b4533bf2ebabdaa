import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../api/kandevApi.js';
import { SessionWorkspace } from './sessionWorkspace.js';
import { fakeApi, fakeMonaco, type FakeTextModel } from './testing.js';

/** A workspace over files that can be written, deleted and listed, as an agent changes them on disk. */
function diskWorkspace(initial: Record<string, string>) {
  const files: Record<string, string> = { ...initial };
  const { monaco } = fakeMonaco();
  const { api, writes, setNextWrite } = fakeApi(files);
  const read = api.readFile;
  const listed: string[] = [];
  const withDisk = {
    ...api,
    readFile: async (sid: string, path: string) => {
      if (!(path in files)) throw new ApiRequestError(404, 'not_found');
      return read(sid, path);
    },
    listFiles: async (_sid: string, folder: string) => {
      listed.push(folder);
      const prefix = folder ? `${folder}/` : '';
      return Object.keys(files)
        .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        .map((p) => ({ name: p.slice(prefix.length), path: p, type: 'file' as const }));
    },
  };
  const ws = new SessionWorkspace('s1', withDisk, monaco);
  const type = (path: string, text: string) => (ws.modelOf(path) as unknown as FakeTextModel).edit(text);
  const tab = (path: string) => ws.getSnapshot().tabs.find((t) => t.path === path);
  const names = (folder: string) => {
    const listing = ws.tree.getSnapshot().listings.get(folder);
    return listing?.state === 'loaded' ? listing.entries.map((e) => e.path) : undefined;
  };
  return { ws, files, writes, listed, type, tab, names, setNextWrite };
}

describe('SessionWorkspace follows the disk', () => {
  it('the tree lists created and deleted files of loaded folders, once per folder and frame', async () => {
    const { ws, files, listed, names } = diskWorkspace({ 'a.ts': 'a', 'src/b.ts': 'b' });
    await ws.tree.load('');
    await ws.tree.toggle('src');
    listed.length = 0;
    files['src/c.ts'] = 'c';
    files['src/d.ts'] = 'd';
    delete files['a.ts'];
    files['new.ts'] = 'n';
    await ws.applyDiskChanges([
      { kind: 'created', path: 'src/c.ts', directory: false },
      { kind: 'created', path: 'src/d.ts', directory: false },
      { kind: 'deleted', path: 'a.ts', directory: false },
      { kind: 'created', path: 'new.ts', directory: false },
      // An unloaded folder is not listed (it loads when expanded).
      { kind: 'created', path: 'other/x.ts', directory: false },
    ]);
    expect(listed.sort()).toEqual(['', 'src']);
    expect(names('')).toEqual(['new.ts']);
    expect(names('src')).toEqual(['src/b.ts', 'src/c.ts', 'src/d.ts']);
    expect(ws.tree.getSnapshot().listings.has('other')).toBe(false);
  });

  it('a clean tab takes the disk text as clean; a tab with unsaved changes keeps them and is marked', async () => {
    const { ws, files, type, tab } = diskWorkspace({ 'a.ts': 'a', 'b.ts': 'b' });
    await ws.open('a.ts');
    await ws.open('b.ts');
    type('b.ts', 'mine');
    files['a.ts'] = 'A from an agent';
    files['b.ts'] = 'B from an agent';
    await ws.applyDiskChanges([
      { kind: 'changed', path: 'a.ts', directory: false },
      { kind: 'changed', path: 'b.ts', directory: false },
    ]);
    expect(ws.modelOf('a.ts')!.getValue()).toBe('A from an agent');
    expect(tab('a.ts')).toMatchObject({ dirty: false, disk: undefined });
    expect(ws.modelOf('b.ts')!.getValue()).toBe('mine');
    expect(tab('b.ts')).toMatchObject({ dirty: true, disk: 'changed' });
  });

  it('Keep mine: the next save goes over the new disk version and succeeds; nothing typed changes', async () => {
    const { ws, files, writes, type, tab } = diskWorkspace({ 'b.ts': 'b' });
    await ws.open('b.ts');
    type('b.ts', 'mine');
    files['b.ts'] = 'theirs';
    await ws.applyDiskChanges([{ kind: 'changed', path: 'b.ts', directory: false }]);
    ws.keepMine('b.ts');
    expect(tab('b.ts')).toMatchObject({ dirty: true, disk: undefined });
    expect(ws.modelOf('b.ts')!.getValue()).toBe('mine');
    expect(await ws.save('b.ts')).toBe('saved');
    expect(writes.at(-1)).toEqual({ path: 'b.ts', content: 'mine', baseVersion: 'v-theirs' });
  });

  it('Take theirs: the disk text as one undoable edit; Undo brings mine back', async () => {
    const { ws, files, type, tab } = diskWorkspace({ 'b.ts': 'b' });
    await ws.open('b.ts');
    type('b.ts', 'mine');
    files['b.ts'] = 'theirs';
    await ws.applyDiskChanges([{ kind: 'changed', path: 'b.ts', directory: false }]);
    await ws.reloadFromDisk('b.ts');
    expect(tab('b.ts')).toMatchObject({ dirty: false, disk: undefined });
    expect(ws.modelOf('b.ts')!.getValue()).toBe('theirs');
    (ws.modelOf('b.ts') as unknown as FakeTextModel).undo();
    expect(ws.modelOf('b.ts')!.getValue()).toBe('mine');
  });

  it('a deleted open file keeps its tab and text, marked deleted; saving recreates it (against a missing file)', async () => {
    const { ws, files, writes, type, tab } = diskWorkspace({ 'a.ts': 'a', 'b.ts': 'b' });
    await ws.open('a.ts');
    await ws.open('b.ts');
    type('b.ts', 'mine');
    delete files['a.ts'];
    delete files['b.ts'];
    await ws.applyDiskChanges([
      { kind: 'deleted', path: 'a.ts', directory: false },
      { kind: 'deleted', path: 'b.ts', directory: false },
    ]);
    expect(tab('a.ts')).toMatchObject({ dirty: false, disk: 'deleted' });
    expect(tab('b.ts')).toMatchObject({ dirty: true, disk: 'deleted' });
    expect(ws.modelOf('b.ts')!.getValue()).toBe('mine');
    expect(await ws.save('b.ts')).toBe('saved');
    expect(writes.at(-1)).toEqual({ path: 'b.ts', content: 'mine', baseVersion: '' });
    expect(files['b.ts']).toBe('mine');
    expect(tab('b.ts')).toMatchObject({ dirty: false, disk: undefined });
  });

  it('a folder deleted on disk marks every open tab inside it', async () => {
    const { ws, files, tab } = diskWorkspace({ 'src/a.ts': 'a', 'src/lib/b.ts': 'b', 'srcx.ts': 'x' });
    for (const p of ['src/a.ts', 'src/lib/b.ts', 'srcx.ts']) await ws.open(p);
    delete files['src/a.ts'];
    delete files['src/lib/b.ts'];
    // The watcher cannot tell a deleted path was a folder: it is reported as a file.
    await ws.applyDiskChanges([{ kind: 'deleted', path: 'src', directory: false }]);
    expect([tab('src/a.ts')?.disk, tab('src/lib/b.ts')?.disk, tab('srcx.ts')?.disk]).toEqual(['deleted', 'deleted', undefined]);
  });

  it('a renamed folder (reported as the old one deleted and a new one created): its open tabs follow, unsaved text and focus included', async () => {
    const { ws, files, type, tab } = diskWorkspace({ 'lib/a.ts': 'a', 'lib/sub/b.ts': 'b', 'other/c.ts': 'c', 'top.ts': 't' });
    for (const p of ['top.ts', 'lib/a.ts', 'lib/sub/b.ts']) await ws.open(p);
    type('lib/a.ts', 'mine');
    ws.activate('lib/sub/b.ts');
    for (const p of ['lib/a.ts', 'lib/sub/b.ts']) {
      files[p.replace('lib/', 'core/')] = files[p]!;
      delete files[p];
    }
    files['fresh/x.ts'] = 'x';
    // As @parcel/watcher reports `mv lib core` (the files inside are listed as created later, if at all).
    await ws.applyDiskChanges([
      { kind: 'created', path: 'fresh', directory: true },
      { kind: 'created', path: 'core', directory: true },
      { kind: 'deleted', path: 'lib', directory: false },
    ]);
    expect(ws.getSnapshot().tabs.map((t) => [t.path, t.dirty, t.disk])).toEqual([
      ['top.ts', false, undefined],
      ['core/a.ts', true, undefined],
      ['core/sub/b.ts', false, undefined],
    ]);
    expect(ws.modelOf('core/a.ts')!.getValue()).toBe('mine');
    expect(ws.getSnapshot().activePath).toBe('core/sub/b.ts');
    expect(tab('top.ts')?.disk).toBeUndefined();
  });

  it('a renamed open file: the tab follows to the new path, unsaved text and focus included', async () => {
    const { ws, files, type } = diskWorkspace({ 'a.ts': 'a', 'b.ts': 'b' });
    await ws.open('a.ts');
    await ws.open('b.ts');
    type('b.ts', 'mine');
    files['c.ts'] = files['b.ts']!;
    delete files['b.ts'];
    await ws.applyDiskChanges([{ kind: 'renamed', from: 'b.ts', path: 'c.ts', directory: false }]);
    expect(ws.getSnapshot().tabs.map((t) => [t.path, t.dirty])).toEqual([
      ['a.ts', false],
      ['c.ts', true],
    ]);
    expect(ws.getSnapshot().activePath).toBe('c.ts');
    expect(ws.modelOf('c.ts')!.getValue()).toBe('mine');
  });

  it('a rename reported as a deletion and a creation (as watchers do): the tab follows the file with its text', async () => {
    const { ws, files, type, tab } = diskWorkspace({ 'a.ts': 'a', 'b.ts': 'b', 'other.ts': 'o' });
    await ws.open('a.ts');
    await ws.open('b.ts');
    type('b.ts', 'mine');
    files['moved/b.ts'] = files['b.ts']!;
    files['unrelated.ts'] = 'new';
    delete files['b.ts'];
    await ws.applyDiskChanges([
      { kind: 'created', path: 'unrelated.ts', directory: false },
      { kind: 'deleted', path: 'b.ts', directory: false },
      { kind: 'created', path: 'moved/b.ts', directory: false },
    ]);
    expect(ws.getSnapshot().tabs.map((t) => [t.path, t.dirty, t.disk])).toEqual([
      ['a.ts', false, undefined],
      ['moved/b.ts', true, undefined],
    ]);
    expect(ws.modelOf('moved/b.ts')!.getValue()).toBe('mine');
    // A deletion with no matching creation stays a deletion.
    delete files['a.ts'];
    files['c.ts'] = 'different';
    await ws.applyDiskChanges([
      { kind: 'deleted', path: 'a.ts', directory: false },
      { kind: 'created', path: 'c.ts', directory: false },
    ]);
    expect(tab('a.ts')?.disk).toBe('deleted');
  });

  it('our own save heard back from the watcher is no change, also when heard before the save was answered', async () => {
    const { ws, files, type, tab, setNextWrite } = diskWorkspace({ 'a.ts': 'a' });
    await ws.open('a.ts');
    type('a.ts', 'mine');
    let answer: () => void = () => undefined;
    setNextWrite(() => {
      files['a.ts'] = 'mine';
      return new Promise((resolve) => (answer = () => resolve({ ok: true, version: 'v-mine' })));
    });
    const saving = ws.save('a.ts');
    // The watcher reports the write before the files API answered the save: no bar flashes.
    await ws.applyDiskChanges([{ kind: 'changed', path: 'a.ts', directory: false }]);
    expect(tab('a.ts')).toMatchObject({ saving: true, disk: undefined });
    answer();
    expect(await saving).toBe('saved');
    await ws.applyDiskChanges([{ kind: 'changed', path: 'a.ts', directory: false }]);
    expect(tab('a.ts')).toMatchObject({ dirty: false, saving: false, disk: undefined });
  });

  it('what is in view: open files and expanded folders with the root', async () => {
    const { ws } = diskWorkspace({ 'src/a.ts': 'a' });
    await ws.open('src/a.ts');
    expect(ws.inView()).toEqual({ files: ['src/a.ts'], folders: ['', 'src'] });
  });
});
