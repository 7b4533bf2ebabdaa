import type { ApplyConflict, FileOperation } from '@kandev/protocol';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { describe, expect, it } from 'vitest';
import { applyWorkspaceEdit, type EditTargets } from './apply.js';
import { planWorkspaceEdit } from './plan.js';
import { applyTextEdits } from './textEdits.js';

const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const toPath = (uri: string) => (uri.startsWith('file:///ws/') ? uri.slice('file:///ws/'.length) : undefined);
const text = (key: string, params?: Record<string, unknown>) => (params ? `${key}:${Object.values(params).join(',')}` : key);

class FakeModel {
  applied: TextEdit[][] = [];
  constructor(
    public value: string,
    public version = 1,
    public dirty = false,
  ) {}
  getVersionId = () => this.version;
  isDirty = () => this.dirty;
  applyEdits = (edits: readonly TextEdit[]) => {
    this.applied.push([...edits]);
    this.value = applyTextEdits(this.value, edits);
    this.version++;
  };
}

function targets(disk: Record<string, string>, models: Record<string, FakeModel> = {}, conflicts: ApplyConflict[] = []) {
  const batches: FileOperation[][] = [];
  const after: unknown[] = [];
  const t: EditTargets = {
    openModel: (path) => models[path],
    openPaths: () => Object.keys(models),
    readFile: async (path) => {
      if (!(path in disk)) throw new Error('404');
      return { content: disk[path] as string, version: `v:${disk[path]}` };
    },
    applyFiles: async (ops) => {
      batches.push(ops);
      if (conflicts.length) return { ok: false, conflicts };
      return {
        ok: true,
        versions: Object.fromEntries(ops.filter((o) => o.kind === 'write').map((o) => [o.path, `new:${(o as { content: string }).content}`])),
      };
    },
    afterFilesApplied: (change) => void after.push(change),
  };
  return { t, batches, after };
}

describe('text edits', () => {
  it('apply against the original text, in order at one position, and refuse overlaps', () => {
    expect(
      applyTextEdits('let a = 1;\nuse(a);\n', [
        { range: r(0, 4, 0, 5), newText: 'b' },
        { range: r(1, 4, 1, 5), newText: 'b' },
      ]),
    ).toBe('let b = 1;\nuse(b);\n');
    expect(
      applyTextEdits('x', [
        { range: r(0, 0, 0, 0), newText: 'a' },
        { range: r(0, 0, 0, 0), newText: 'b' },
      ]),
    ).toBe('abx');
    expect(applyTextEdits('a\r\nb', [{ range: r(0, 0, 0, 99), newText: 'z' }])).toBe('z\r\nb');
    expect(() =>
      applyTextEdits('abcdef', [
        { range: r(0, 0, 0, 3), newText: '' },
        { range: r(0, 2, 0, 4), newText: '' },
      ]),
    ).toThrow();
  });
});

describe('workspace edit plan', () => {
  it('documentChanges keep their order, including create/rename/delete; changes map per URI', () => {
    const plan = planWorkspaceEdit(
      {
        documentChanges: [
          { kind: 'create', uri: 'file:///ws/n.ts', options: { ignoreIfExists: true } },
          { textDocument: { uri: 'file:///ws/n.ts', version: null }, edits: [{ range: r(0, 0, 0, 0), newText: 'x' }] },
          { kind: 'rename', oldUri: 'file:///ws/a.ts', newUri: 'file:///ws/b.ts' },
          { kind: 'delete', uri: 'file:///ws/c.ts', options: { recursive: true } },
        ],
      },
      toPath,
    );
    expect(plan).toEqual({
      ok: true,
      steps: [
        { kind: 'create', path: 'n.ts', overwrite: false, ignoreIfExists: true },
        { kind: 'edit', path: 'n.ts', edits: [{ range: r(0, 0, 0, 0), newText: 'x' }] },
        { kind: 'rename', from: 'a.ts', to: 'b.ts', overwrite: false, ignoreIfExists: false },
        { kind: 'delete', path: 'c.ts', recursive: true, ignoreIfNotExists: false },
      ],
    });
    expect(planWorkspaceEdit({ changes: { 'file:///ws/a.ts': [{ range: r(0, 0, 0, 1), newText: 'y' }] } }, toPath)).toMatchObject({
      ok: true,
      steps: [{ kind: 'edit', path: 'a.ts' }],
    });
    expect(planWorkspaceEdit({ changes: { 'file:///etc/passwd': [{ range: r(0, 0, 0, 1), newText: 'y' }] } }, toPath)).toEqual({
      ok: false,
      reason: 'outside',
      uri: 'file:///etc/passwd',
    });
    expect(planWorkspaceEdit({ changes: { 'file:///ws/a.ts': [{ newText: 'y' }] } } as never, toPath)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('applying a workspace edit (rename across files)', () => {
  const renameEdit = {
    changes: {
      'file:///ws/a.ts': [{ range: r(0, 13, 0, 16), newText: 'bar' }],
      'file:///ws/b.ts': [{ range: r(0, 9, 0, 12), newText: 'bar' }],
    },
  };

  it('edits the open model as one undo stop and writes the closed file with its read version', async () => {
    const a = new FakeModel('export const foo = 1;\n');
    const { t, batches, after } = targets({ 'b.ts': 'import { foo } from "./a";\n' }, { 'a.ts': a });
    expect(await applyWorkspaceEdit(renameEdit, toPath, t, text, new Map([['a.ts', 1]]))).toEqual({ applied: true });
    expect(a.value).toBe('export const bar = 1;\n');
    expect(a.applied).toHaveLength(1);
    expect(batches).toEqual([[{ kind: 'write', path: 'b.ts', content: 'import { bar } from "./a";\n', baseVersion: 'v:import { foo } from "./a";\n' }]]);
    expect(after).toHaveLength(1);
  });

  it('a file changed on disk since it was read: nothing applies, not even the open model, and the reason names the file', async () => {
    const a = new FakeModel('export const foo = 1;\n');
    const { t } = targets({ 'b.ts': 'import { foo } from "./a";\n' }, { 'a.ts': a }, [{ path: 'b.ts', reason: 'changed', currentVersion: 'x' }]);
    expect(await applyWorkspaceEdit(renameEdit, toPath, t, text)).toEqual({ applied: false, failureReason: 'apply.conflict:b.ts' });
    expect(a.applied).toEqual([]);
    expect(a.value).toBe('export const foo = 1;\n');
  });

  it('an open model edited since the request refuses the edit (stale), before anything is written', async () => {
    const a = new FakeModel('export const foo = 1;\n', 5);
    const { t, batches } = targets({ 'b.ts': 'x' }, { 'a.ts': a });
    expect(await applyWorkspaceEdit(renameEdit, toPath, t, text, new Map([['a.ts', 4]]))).toEqual({ applied: false, failureReason: 'apply.stale:a.ts' });
    expect(batches).toEqual([]);
  });

  it('refuses to rename or delete an open file with unsaved changes; creates then edits a new file without a base version', async () => {
    const { t } = targets({}, { 'a.ts': new FakeModel('x', 1, true) });
    expect(await applyWorkspaceEdit({ documentChanges: [{ kind: 'rename', oldUri: 'file:///ws/a.ts', newUri: 'file:///ws/z.ts' }] }, toPath, t, text)).toEqual({
      applied: false,
      failureReason: 'apply.dirtyResource:a.ts',
    });
    const created = targets({});
    const edit = {
      documentChanges: [
        { kind: 'create' as const, uri: 'file:///ws/new.ts' },
        { textDocument: { uri: 'file:///ws/new.ts', version: null }, edits: [{ range: r(0, 0, 0, 0), newText: 'export {};\n' }] },
      ],
    };
    expect(await applyWorkspaceEdit(edit, toPath, created.t, text)).toEqual({ applied: true });
    expect(created.batches[0]).toEqual([
      { kind: 'create', path: 'new.ts', overwrite: false, ignoreIfExists: false },
      { kind: 'write', path: 'new.ts', content: 'export {};\n' },
    ]);
  });

  it('refuses to rename or delete a folder holding an open file with unsaved changes; a saved one does not stop it', async () => {
    const dirty = targets({}, { 'src/lib/a.ts': new FakeModel('x', 1, true), 'srcx.ts': new FakeModel('y', 1, true) });
    expect(
      await applyWorkspaceEdit({ documentChanges: [{ kind: 'rename', oldUri: 'file:///ws/src', newUri: 'file:///ws/app' }] }, toPath, dirty.t, text),
    ).toEqual({ applied: false, failureReason: 'apply.dirtyResource:src/lib/a.ts' });
    expect(
      await applyWorkspaceEdit({ documentChanges: [{ kind: 'delete', uri: 'file:///ws/src', options: { recursive: true } }] }, toPath, dirty.t, text),
    ).toEqual({ applied: false, failureReason: 'apply.dirtyResource:src/lib/a.ts' });
    expect(dirty.batches).toEqual([]);
    const saved = targets({}, { 'src/lib/a.ts': new FakeModel('x', 1, false), 'srcx.ts': new FakeModel('y', 1, true) });
    expect(
      await applyWorkspaceEdit({ documentChanges: [{ kind: 'rename', oldUri: 'file:///ws/src', newUri: 'file:///ws/app' }] }, toPath, saved.t, text),
    ).toEqual({ applied: true });
  });

  it('an edit after a rename reads the renamed file from its old path', async () => {
    const { t, batches } = targets({ 'old.ts': 'a' });
    const edit = {
      documentChanges: [
        { kind: 'rename' as const, oldUri: 'file:///ws/old.ts', newUri: 'file:///ws/new.ts' },
        { textDocument: { uri: 'file:///ws/new.ts', version: null }, edits: [{ range: r(0, 1, 0, 1), newText: 'b' }] },
      ],
    };
    expect(await applyWorkspaceEdit(edit, toPath, t, text)).toEqual({ applied: true });
    expect(batches[0]).toEqual([
      { kind: 'rename', from: 'old.ts', to: 'new.ts', overwrite: false, ignoreIfExists: false },
      { kind: 'write', path: 'new.ts', content: 'ab' },
    ]);
  });

  it('outside the workspace or unreadable: refused with a reason, nothing written', async () => {
    const { t, batches } = targets({});
    expect(await applyWorkspaceEdit({ changes: { 'file:///other/x.ts': [] } }, toPath, t, text)).toEqual({
      applied: false,
      failureReason: 'apply.outside:file:///other/x.ts',
    });
    expect(await applyWorkspaceEdit({ changes: { 'file:///ws/gone.ts': [{ range: r(0, 0, 0, 0), newText: 'x' }] } }, toPath, t, text)).toEqual({
      applied: false,
      failureReason: 'apply.missing:gone.ts',
    });
    expect(batches).toEqual([]);
  });
});
