import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyFileOperations } from './apply.js';
import { contentVersion } from './version.js';
import { Workspace } from './workspace.js';

let base: string;
let root: string;
let ws: Workspace;
const v = (text: string) => contentVersion(Buffer.from(text));

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'agentctl-apply-'));
  root = join(base, 'ws');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(root, 'src/a.ts'), 'a\n');
  writeFileSync(join(root, 'src/b.ts'), 'b\n');
  writeFileSync(join(base, 'outside/x.ts'), 'x\n');
  symlinkSync(join(root, 'src/a.ts'), join(root, 'alias.ts'));
  ws = await Workspace.open(root);
});

afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('files apply (workspace edits on files that are not open)', () => {
  it('writes every file when every base version still matches, and reports the new versions', async () => {
    const outcome = await applyFileOperations(ws, [
      { kind: 'write', path: 'src/a.ts', content: 'A\n', baseVersion: v('a\n') },
      { kind: 'write', path: 'src/b.ts', content: 'B\n', baseVersion: v('b\n') },
    ]);
    expect(outcome).toEqual({ ok: true, value: { versions: { 'src/a.ts': v('A\n'), 'src/b.ts': v('B\n') } } });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('A\n');
    expect(readFileSync(join(root, 'src/b.ts'), 'utf8')).toBe('B\n');
  });

  it('one file changed on disk since it was read: 409 naming it, and nothing at all is written', async () => {
    writeFileSync(join(root, 'src/b.ts'), 'changed meanwhile\n');
    const outcome = await applyFileOperations(ws, [
      { kind: 'write', path: 'src/a.ts', content: 'A\n', baseVersion: v('a\n') },
      { kind: 'create', path: 'src/new.ts' },
      { kind: 'write', path: 'src/b.ts', content: 'B\n', baseVersion: v('b\n') },
    ]);
    expect(outcome.ok).toBe(false);
    expect(outcome.ok === false && 'conflicts' in outcome && outcome.conflicts).toEqual([
      { path: 'src/b.ts', reason: 'changed', currentVersion: v('changed meanwhile\n') },
    ]);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('a\n');
    expect(existsSync(join(root, 'src/new.ts'))).toBe(false);
    expect(readFileSync(join(root, 'src/b.ts'), 'utf8')).toBe('changed meanwhile\n');
  });

  it('create, write into it, rename and delete run in order; options ignore what LSP says to ignore', async () => {
    const outcome = await applyFileOperations(ws, [
      { kind: 'create', path: 'lib/c.ts' },
      { kind: 'write', path: 'lib/c.ts', content: 'export const c = 1;\n', baseVersion: '' },
      { kind: 'rename', from: 'src/a.ts', to: 'src/renamed.ts' },
      { kind: 'delete', path: 'src/b.ts' },
      { kind: 'delete', path: 'src/gone.ts', ignoreIfNotExists: true },
      { kind: 'create', path: 'src/renamed.ts', ignoreIfExists: true },
    ]);
    expect(outcome.ok).toBe(true);
    expect(readFileSync(join(root, 'lib/c.ts'), 'utf8')).toBe('export const c = 1;\n');
    expect(readFileSync(join(root, 'src/renamed.ts'), 'utf8')).toBe('a\n');
    expect(existsSync(join(root, 'src/a.ts'))).toBe(false);
    expect(existsSync(join(root, 'src/b.ts'))).toBe(false);
  });

  it('creating over an existing file or renaming a missing one conflicts unless told otherwise', async () => {
    const outcome = await applyFileOperations(ws, [
      { kind: 'create', path: 'src/a.ts' },
      { kind: 'rename', from: 'src/none.ts', to: 'src/x.ts' },
    ]);
    expect(outcome.ok === false && 'conflicts' in outcome && outcome.conflicts).toEqual([
      { path: 'src/a.ts', reason: 'exists' },
      { path: 'src/none.ts', reason: 'missing' },
    ]);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('a\n');
  });

  it('paths outside the workspace and links are refused before anything is written', async () => {
    const escape = await applyFileOperations(ws, [
      { kind: 'write', path: 'src/a.ts', content: 'A\n' },
      { kind: 'write', path: '../outside/x.ts', content: 'pwned' },
    ]);
    expect(escape).toMatchObject({ ok: false, error: { status: 403, code: 'path_outside_workspace' } });
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('a\n');
    const link = await applyFileOperations(ws, [{ kind: 'delete', path: 'alias.ts' }]);
    expect(link).toMatchObject({ ok: false, error: { status: 400 } });
    expect(existsSync(join(root, 'src/a.ts'))).toBe(true);
    const renameOut = await applyFileOperations(ws, [{ kind: 'rename', from: 'src/a.ts', to: '../outside/y.ts' }]);
    expect(renameOut).toMatchObject({ ok: false, error: { status: 403 } });
    expect(existsSync(join(base, 'outside/y.ts'))).toBe(false);
  });
});
