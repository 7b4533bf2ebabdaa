import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_OPEN_FILE_BYTES } from '@kandev/protocol';
import { listFiles } from './list.js';
import { readWorkspaceFile } from './read.js';
import { searchWorkspace } from './search.js';
import { contentVersion } from './version.js';
import { parseRelativePath, Workspace } from './workspace.js';
import { writeWorkspaceFile } from './write.js';

let root: string;
let ws: Workspace;
let outside: string;

// A fresh fixture per test: several tests write into it, and none may depend on another's order.
beforeEach(async () => {
  const base = mkdtempSync(join(tmpdir(), 'agentctl-confine-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'src/nested'), { recursive: true });
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'README.md'), 'hello\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
  symlinkSync(outside, join(root, 'outdir'));
  symlinkSync(join(root, 'src/a.ts'), join(root, 'alias.ts'));
  symlinkSync(join(outside, 'not-yet.txt'), join(root, 'dangling.txt'));
  ws = await Workspace.open(root);
});

afterEach(() => {
  rmSync(join(root, '..'), { recursive: true, force: true });
});

describe('parseRelativePath', () => {
  it('refuses absolute paths, drive letters and .. segments before touching the disk', () => {
    for (const bad of ['/etc/passwd', '\\\\server\\share', 'C:\\x', 'c:/x', '../x', 'a/../../x', 'a/..']) {
      const r = parseRelativePath(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('path_outside_workspace');
    }
    expect(parseRelativePath('a\0b').ok).toBe(false);
    const clean = parseRelativePath('./src//a.ts');
    expect(clean.ok && clean.value.text).toBe('src/a.ts');
  });
});

describe('workspace confinement', () => {
  it('reads a file inside and one reached through a symlink that stays inside', async () => {
    const direct = await readWorkspaceFile(ws, 'src/a.ts');
    expect(direct.ok && direct.value.content).toBe('export const a = 1;\n');
    const viaLink = await readWorkspaceFile(ws, 'alias.ts');
    expect(viaLink.ok && viaLink.value.version).toBe(contentVersion(Buffer.from('export const a = 1;\n')));
  });

  it('refuses a symlink whose target leaves the workspace, and dangling links', async () => {
    for (const path of ['leak.txt', 'outdir/secret.txt', 'dangling.txt']) {
      const r = await readWorkspaceFile(ws, path);
      expect(r.ok, path).toBe(false);
      if (!r.ok) expect(r.error.status).toBe(403);
    }
  });

  it('answers 404 for a missing path inside', async () => {
    const r = await readWorkspaceFile(ws, 'src/missing.ts');
    expect(!r.ok && r.error.status).toBe(404);
  });

  it('refuses writes through escaping links and creates nothing outside', async () => {
    for (const path of ['leak.txt', 'outdir/new.txt', 'outdir/deep/new.txt', 'dangling.txt', '../outside/x.txt', join(outside, 'abs.txt')]) {
      const r = await writeWorkspaceFile(ws, path, 'pwned', undefined);
      expect(r.ok, path).toBe(false);
      if (!r.ok) expect(r.error.status).toBe(403);
    }
    expect(readdirSync(outside).sort()).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });
});

describe('files API', () => {
  it('lists directories first then by name, hides .git and escaping links', async () => {
    const r = await listFiles(ws, '');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const names = r.value.entries.map((e) => `${e.type[0]}:${e.name}`);
    expect(names).toEqual(['d:src', 'f:README.md', 'f:alias.ts']);
    const nested = await listFiles(ws, 'src');
    expect(nested.ok && nested.value.entries.map((e) => e.path)).toEqual(['src/nested', 'src/a.ts']);
  });

  it('writes atomically with a version check, and reports conflicts with the current version', async () => {
    const read = await readWorkspaceFile(ws, 'README.md');
    if (!read.ok) throw new Error('read failed');
    const first = await writeWorkspaceFile(ws, 'README.md', 'v2\n', read.value.version);
    expect(first.ok && first.value.version).toBe(contentVersion(Buffer.from('v2\n')));
    const stale = await writeWorkspaceFile(ws, 'README.md', 'v3\n', read.value.version);
    expect(stale.ok).toBe(false);
    if (!stale.ok && 'currentVersion' in stale) expect(stale.currentVersion).toBe(contentVersion(Buffer.from('v2\n')));
    else throw new Error('expected a conflict');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('v2\n');
    // No temp file is left next to the target.
    expect(readdirSync(root).filter((n) => n.includes('.kandev-'))).toEqual([]);
  });

  it('writes through an inside symlink to its real target, keeping the link', async () => {
    const r = await writeWorkspaceFile(ws, 'alias.ts', 'export const a = 2;\n', undefined);
    expect(r.ok).toBe(true);
    expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
  });

  it('creates a new file and its missing folders inside the workspace', async () => {
    const r = await writeWorkspaceFile(ws, 'new/dir/file.py', 'print(1)\n', undefined);
    expect(r.ok).toBe(true);
    expect(readFileSync(join(root, 'new/dir/file.py'), 'utf8')).toBe('print(1)\n');
    const conflict = await writeWorkspaceFile(ws, 'new/other.py', 'x', 'some-version');
    expect(!conflict.ok && conflict.error.status).toBe(409);
    expect(existsSync(join(root, 'new/other.py'))).toBe(false);
  });

  it('reads files above the old 5 MiB bound; refuses what is over the editor limit with 413', async () => {
    writeFileSync(join(root, 'big.bin'), Buffer.alloc(5 * 1024 * 1024 + 1, 97));
    const r = await readWorkspaceFile(ws, 'big.bin');
    expect(r.ok && r.value.content.length).toBe(5 * 1024 * 1024 + 1);
    const refused = await writeWorkspaceFile(ws, 'huge.txt', 'x'.repeat(MAX_OPEN_FILE_BYTES + 1), undefined);
    expect(!refused.ok && refused.error.status).toBe(413);
  });

  it('searches with 1-based line and column, skipping .git, node_modules and escaping links', async () => {
    mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(root, 'node_modules/pkg/index.js'), 'needle\n');
    writeFileSync(join(root, '.git/config'), 'needle\n');
    writeFileSync(join(outside, 'o.txt'), 'needle\n');
    writeFileSync(join(root, 'src/nested/n.ts'), 'const x = 1;\n  // Needle here\n');
    writeFileSync(join(root, 'bin.dat'), Buffer.from([110, 101, 101, 100, 108, 101, 0, 1]));
    const r = await searchWorkspace(ws, 'needle');
    expect(r.ok && r.value.hits).toEqual([{ path: 'src/nested/n.ts', line: 2, column: 6, preview: '  // Needle here' }]);
    expect((await searchWorkspace(ws, '')).ok).toBe(false);
  });
});
