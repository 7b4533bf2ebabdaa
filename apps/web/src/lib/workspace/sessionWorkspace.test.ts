import { describe, expect, it } from 'vitest';
import { SessionWorkspace } from './sessionWorkspace.js';
import { fakeApi, fakeMonaco, type FakeTextModel } from './testing.js';

describe('SessionWorkspace', () => {
  it('opens one tab per workspace-relative path and offers each language its documents', async () => {
    const { monaco } = fakeMonaco();
    const { api } = fakeApi({ 'a.ts': 'a', 'b.py': 'b' });
    const ws = new SessionWorkspace('s1', api, monaco);
    const opened: string[] = [];
    ws.documentSource('typescript').onDidOpen((d) => opened.push(d.path));
    await ws.open('a.ts');
    await ws.open('b.py');
    await ws.open('a.ts');
    expect(ws.getSnapshot().tabs.map((t) => t.path)).toEqual(['a.ts', 'b.py']);
    expect(ws.getSnapshot().activePath).toBe('a.ts');
    expect(opened).toEqual(['a.ts']);
    expect(
      ws
        .documentSource('python')
        .documents()
        .map((d) => [d.path, d.languageId]),
    ).toEqual([['b.py', 'python']]);
  });

  it('S53 a supported filename with binary content gets a static notice: no model, no tab, no document for its server', async () => {
    const { monaco, models } = fakeMonaco();
    const { api } = fakeApi({ 'lib/blob.kt': 'PK\u0003\u0004\u0000\u0000binary' });
    const ws = new SessionWorkspace('s1', api, monaco);
    const opened: string[] = [];
    ws.documentSource('kotlin').onDidOpen((d) => opened.push(d.path));
    await ws.open('lib/blob.kt');
    expect(ws.getSnapshot()).toMatchObject({ activePath: 'lib/blob.kt', tabs: [] });
    expect([...ws.getSnapshot().binary]).toEqual(['lib/blob.kt']);
    expect([...ws.getSnapshot().openFailed]).toEqual([]);
    expect(models.size).toBe(0);
    expect(opened).toEqual([]);
  });

  it('S24 a successful save sends its snapshot to the LSP layer; a rejected write does not', async () => {
    const { monaco, models } = fakeMonaco();
    const { api, writes, setNextWrite } = fakeApi({ 'a.ts': 'one' });
    const ws = new SessionWorkspace('s1', api, monaco);
    const saved: string[] = [];
    ws.documentSource('typescript').onDidSave((e) => saved.push(e.text));
    await ws.open('a.ts');
    const model = models.get('kandev-session://s1/a.ts')!;
    model.edit('two');
    expect(ws.getSnapshot().tabs[0]!.dirty).toBe(true);
    expect(await ws.save('a.ts')).toBe('saved');
    expect(writes[0]).toEqual({ path: 'a.ts', content: 'two', baseVersion: 'v-one' });
    expect(saved).toEqual(['two']);
    expect(ws.getSnapshot().tabs[0]!.dirty).toBe(false);
    model.edit('three');
    setNextWrite(async () => ({ ok: false, conflict: true, currentVersion: 'v-disk' }));
    expect(await ws.save('a.ts')).toBe('conflict');
    expect(saved).toEqual(['two']);
    expect(ws.getSnapshot().tabs[0]).toMatchObject({ conflict: true, dirty: true });
  });

  it('S25 typing while a save is in flight leaves the newer snapshot dirty', async () => {
    const { monaco, models } = fakeMonaco();
    const { api, setNextWrite } = fakeApi({ 'a.ts': 'v1' });
    const ws = new SessionWorkspace('s1', api, monaco);
    await ws.open('a.ts');
    const model = models.get('kandev-session://s1/a.ts')!;
    model.edit('v2');
    let finish!: () => void;
    setNextWrite(() => new Promise((resolve) => (finish = () => resolve({ ok: true, version: 'v-v2' }))));
    const saving = ws.save('a.ts');
    expect(ws.getSnapshot().tabs[0]!.saving).toBe(true);
    model.edit('v3');
    finish();
    expect(await saving).toBe('saved');
    expect(ws.getSnapshot().tabs[0]!.dirty).toBe(true);
    model.undo(); // back to the saved snapshot: clean again
    expect(ws.getSnapshot().tabs[0]!.dirty).toBe(false);
  });

  it('conflict: overwrite writes over the reported disk version; reload takes the disk text as one undoable edit', async () => {
    const { monaco, models } = fakeMonaco();
    const files = { 'a.ts': 'base' };
    const { api, writes, setNextWrite } = fakeApi(files);
    const ws = new SessionWorkspace('s1', api, monaco);
    await ws.open('a.ts');
    const model = models.get('kandev-session://s1/a.ts')!;
    model.edit('mine');
    setNextWrite(async () => ({ ok: false, conflict: true, currentVersion: 'v-disk' }));
    await ws.save('a.ts');
    await ws.overwrite('a.ts');
    expect(writes.at(-1)).toEqual({ path: 'a.ts', content: 'mine', baseVersion: 'v-disk' });
    expect(ws.getSnapshot().tabs[0]).toMatchObject({ conflict: false, dirty: false });

    model.edit('mine again');
    setNextWrite(async () => ({ ok: false, conflict: true, currentVersion: 'v-theirs' }));
    await ws.save('a.ts');
    files['a.ts'] = 'theirs';
    await ws.reloadFromDisk('a.ts');
    expect(model.getValue()).toBe('theirs');
    expect(ws.getSnapshot().tabs[0]).toMatchObject({ conflict: false, dirty: false });
    model.undo();
    expect(model.getValue()).toBe('mine again'); // nothing lost
  });

  it('S37 a reveal is consumed only by its own session workspace and path', async () => {
    const { monaco } = fakeMonaco();
    const a = new SessionWorkspace('sa', fakeApi({ 'x.ts': 'x' }).api, monaco);
    const b = new SessionWorkspace('sb', fakeApi({ 'x.ts': 'x' }).api, monaco);
    await a.open('x.ts');
    await b.open('x.ts');
    await a.open('x.ts', { lineNumber: 4, column: 2 });
    expect(b.takeReveal('x.ts')).toBeUndefined();
    expect(a.takeReveal('y.ts')).toBeUndefined();
    expect(a.takeReveal('x.ts')).toEqual({ lineNumber: 4, column: 2 });
    // An editor mounted twice in one commit (React StrictMode) reveals too; a later mount does not.
    expect(a.takeReveal('x.ts')).toEqual({ lineNumber: 4, column: 2 });
    await Promise.resolve();
    expect(a.takeReveal('x.ts')).toBeUndefined();
    expect(a.modelOf('x.ts')).not.toBe(b.modelOf('x.ts'));
  });

  it('models are reference counted: a navigation target outlives its tab and goes with its last reference', async () => {
    const { monaco, models } = fakeMonaco();
    const ws = new SessionWorkspace('s1', fakeApi({ 'lib.ts': 'l' }).api, monaco);
    const placeholder = await ws.acquireModel('lib.ts');
    await ws.open('lib.ts');
    ws.close('lib.ts');
    const model = models.get('kandev-session://s1/lib.ts')!;
    expect(model.disposed).toBe(false);
    placeholder.dispose();
    expect(model.disposed).toBe(true);
  });

  it('an edit to a model without a tab (a peek view) gets a tab so it is never lost', async () => {
    const { monaco, models } = fakeMonaco();
    const ws = new SessionWorkspace('s1', fakeApi({ 'lib.ts': 'l' }).api, monaco);
    await ws.acquireModel('lib.ts');
    models.get('kandev-session://s1/lib.ts')!.edit('edited in peek');
    expect(ws.getSnapshot().tabs).toMatchObject([{ path: 'lib.ts', dirty: true }]);
  });
});

describe('SessionWorkspace as a workspace-edit target', () => {
  it('only tabs are open models; written files refresh loaded models; renamed and deleted tabs follow the disk', async () => {
    const { monaco } = fakeMonaco();
    const { api } = fakeApi({ 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c' });
    const ws = new SessionWorkspace('s1', api, monaco);
    await ws.open('a.ts');
    await ws.open('c.ts');
    const preview = await ws.acquireModel('b.ts'); // a navigation preview: a model, no tab
    const targets = ws.editTargets();
    expect(targets.openModel('a.ts')).toBeDefined();
    expect(targets.openModel('b.ts')).toBeUndefined();
    targets.afterFilesApplied({ written: new Map([['b.ts', { content: 'B', version: 'v-B' }]]), renamed: [['a.ts', 'z.ts']], deleted: ['c.ts'] });
    expect(ws.modelOf('b.ts')!.getValue()).toBe('B');
    expect(ws.isDirty('b.ts')).toBe(false);
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ws.getSnapshot().tabs.map((t) => t.path)).toEqual(['z.ts']);
    preview.dispose();
  });

  it('a renamed folder takes its open tabs along (the active one stays active); a deleted folder closes the tabs inside it', async () => {
    const { monaco } = fakeMonaco();
    const { api } = fakeApi({ 'src/a.ts': 'a', 'src/lib/b.ts': 'b', 'srcx.ts': 'x', 'old/c.ts': 'c' });
    const ws = new SessionWorkspace('s1', api, monaco);
    for (const path of ['src/a.ts', 'srcx.ts', 'old/c.ts', 'src/lib/b.ts']) await ws.open(path);
    ws.activate('src/a.ts');
    const targets = ws.editTargets();
    expect(targets.openPaths?.()).toEqual(['src/a.ts', 'srcx.ts', 'old/c.ts', 'src/lib/b.ts']);
    targets.afterFilesApplied({ written: new Map(), renamed: [['src', 'app']], deleted: ['old'] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(
      ws
        .getSnapshot()
        .tabs.map((t) => t.path)
        .sort(),
    ).toEqual(['app/a.ts', 'app/lib/b.ts', 'srcx.ts']);
    expect(ws.getSnapshot().activePath).toBe('app/a.ts');
  });

  it('refreshFromDisk: a clean tab takes what changed on disk; a tab with unsaved changes and a file that is gone keep their text', async () => {
    const { monaco } = fakeMonaco();
    const files: Record<string, string> = { 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c', 'd.ts': 'd' };
    const { api } = fakeApi(files);
    const readFile = api.readFile;
    api.readFile = async (sid: string, path: string) => {
      if (!(path in files)) throw new Error('404');
      return readFile(sid, path);
    };
    const ws = new SessionWorkspace('s1', api, monaco);
    for (const path of ['a.ts', 'b.ts', 'c.ts', 'd.ts']) await ws.open(path);
    (ws.modelOf('b.ts') as unknown as FakeTextModel).edit('typed');
    files['a.ts'] = 'A from an agent';
    files['b.ts'] = 'B from an agent';
    delete files['c.ts'];
    await ws.refreshFromDisk();
    expect(ws.modelOf('a.ts')!.getValue()).toBe('A from an agent');
    expect(ws.isDirty('a.ts')).toBe(false);
    // The tab strip says so too (its snapshot was built while the text was being replaced).
    expect(ws.getSnapshot().tabs.find((t) => t.path === 'a.ts')?.dirty).toBe(false);
    expect(ws.modelOf('b.ts')!.getValue()).toBe('typed');
    expect(ws.isDirty('b.ts')).toBe(true);
    expect(ws.modelOf('c.ts')!.getValue()).toBe('c');
    expect(ws.modelOf('d.ts')!.getValue()).toBe('d');
  });

  it('format on save runs before the snapshot is taken, and a failing formatter never blocks the save', async () => {
    const { monaco } = fakeMonaco();
    const { api, writes } = fakeApi({ 'a.ts': 'x' });
    let fail = false;
    const ws = new SessionWorkspace('s1', api, monaco, async (_path, model) => {
      if (fail) throw new Error('server gone');
      (model as unknown as { edit(text: string): void }).edit('formatted');
    });
    await ws.open('a.ts');
    (ws.modelOf('a.ts') as unknown as { edit(text: string): void }).edit('typed');
    expect(await ws.save('a.ts')).toBe('saved');
    expect(writes.at(-1)!.content).toBe('formatted');
    fail = true;
    (ws.modelOf('a.ts') as unknown as { edit(text: string): void }).edit('again');
    expect(await ws.save('a.ts')).toBe('saved');
    expect(writes.at(-1)!.content).toBe('again');
  });
});
