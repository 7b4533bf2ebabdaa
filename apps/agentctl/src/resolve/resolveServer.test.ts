import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogLanguage } from '../catalog/catalog.js';
import { managedRoot, taskHome } from '../install/layout.js';
import { launcherNames, pathDirectories, pathExtensions } from '../env/pathLookup.js';
import { resolveServer, type ResolveFs } from './resolveServer.js';

const posix = 'linux';
const windows = 'win32';
const temp = mkdtempSync(join(tmpdir(), 'agentctl-resolve-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function binary(dir: string, name: string, mode = 0o755): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

/** A Windows file system made of a set of existing file paths (case-insensitive, like NTFS). */
function windowsFs(files: string[]): ResolveFs {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return {
    probe: async (p) => (set.has(p.toLowerCase()) ? 'file' : 'missing'),
    realpath: async (p) => p,
  };
}

describe('PATH lookup (POSIX)', () => {
  it('ignores relative PATH entries, which would resolve against the repository', () => {
    expect(pathDirectories({ PATH: '/usr/bin::.:node_modules/.bin:.kandev/lsp-servers:/bin:/usr/bin' }, posix)).toEqual(['/usr/bin', '/bin']);
  });

  it('finds the first PATH entry holding the binary, non-executable files included (S28 is decided at launch)', async () => {
    const a = join(temp, 'p1');
    const b = join(temp, 'p2');
    const broken = binary(a, 'gopls', 0o644);
    binary(b, 'gopls');
    const r = await resolveServer({ language: catalogLanguage('go'), env: { PATH: `${a}:${b}` }, platform: posix, workspaceReal: join(temp, 'ws') });
    expect(r).toEqual({ found: true, path: broken, source: 'path' });
  });

  it('S09 looks in the managed root of the TASK HOME, not agentctl’s own home', async () => {
    const home = join(temp, 'task-home');
    const launcher = binary(join(home, '.kandev/lsp-servers/python/node_modules/.bin'), 'pyright-langserver');
    const r = await resolveServer({
      language: catalogLanguage('python'),
      env: { PATH: '/nonexistent', HOME: home },
      platform: posix,
      workspaceReal: join(temp, 'ws'),
    });
    expect(r).toEqual({ found: true, path: launcher, source: 'managed' });
    const none = await resolveServer({
      language: catalogLanguage('python'),
      env: { PATH: '/nonexistent', HOME: join(temp, 'other-home') },
      platform: posix,
      workspaceReal: join(temp, 'ws'),
    });
    expect(none.found).toBe(false);
  });

  it('S07 finds gopls where the task Go env puts it: GOBIN, GOPATH/bin, HOME/go/bin', async () => {
    const gobin = join(temp, 'gobin');
    const launcher = binary(gobin, 'gopls');
    const r = await resolveServer({
      language: catalogLanguage('go'),
      env: { PATH: '/nonexistent', GOBIN: gobin },
      platform: posix,
      workspaceReal: join(temp, 'ws'),
    });
    expect(r).toEqual({ found: true, path: launcher, source: 'go_bin' });
    const gopath = join(temp, 'gopath');
    const viaGopath = binary(join(gopath, 'bin'), 'gopls');
    const r2 = await resolveServer({
      language: catalogLanguage('go'),
      env: { PATH: '', GOPATH: `relative:${gopath}` },
      platform: posix,
      workspaceReal: join(temp, 'ws'),
    });
    expect(r2).toEqual({ found: true, path: viaGopath, source: 'go_bin' });
  });

  it('S57 never resolves a repository’s own .kandev/lsp-servers, even via HOME=workspace or an absolute PATH entry', async () => {
    const ws = join(temp, 'repo');
    const planted = join(ws, '.kandev/lsp-servers');
    binary(planted, 'kotlin-lsp');
    binary(join(planted, 'typescript/node_modules/.bin'), 'typescript-language-server');
    const kotlin = await resolveServer({
      language: catalogLanguage('kotlin'),
      env: { PATH: `${planted}:.kandev/lsp-servers`, HOME: ws },
      platform: posix,
      workspaceReal: ws,
    });
    expect(kotlin).toEqual({ found: false, refused: [join(planted, 'kotlin-lsp')] });
    const ts = await resolveServer({ language: catalogLanguage('typescript'), env: { PATH: '/nonexistent', HOME: ws }, platform: posix, workspaceReal: ws });
    expect(ts.found).toBe(false);
  });
});

describe('Windows rules (injected platform, path flavour and PATHEXT)', () => {
  it('reads Path case-insensitively, splits on ;, unquotes and drops relative entries', () => {
    expect(pathDirectories({ Path: 'C:\\tools;"C:\\Program Files\\x";relative;\\\\srv\\share\\bin;D:drive-relative' }, windows)).toEqual([
      'C:\\tools',
      'C:\\Program Files\\x',
      '\\\\srv\\share\\bin',
    ]);
  });

  it('S10 returns the concrete PATHEXT launcher (.cmd), never npm’s extensionless sh shim', async () => {
    const fs = windowsFs(['C:\\tools\\typescript-language-server', 'C:\\tools\\typescript-language-server.cmd']);
    const r = await resolveServer({
      language: catalogLanguage('typescript'),
      env: { PATH: 'C:\\tools', PATHEXT: '.COM;.EXE;.BAT;.CMD' },
      platform: windows,
      workspaceReal: 'C:\\ws',
      fs,
    });
    expect(r).toEqual({ found: true, path: 'C:\\tools\\typescript-language-server.cmd', source: 'path' });
  });

  it('honours PATHEXT order and an injected PATHEXT', async () => {
    const fs = windowsFs(['C:\\bin\\gopls.cmd', 'C:\\bin\\gopls.exe']);
    const env = { PATH: 'C:\\bin', PATHEXT: '.EXE;.CMD' };
    expect(await resolveServer({ language: catalogLanguage('go'), env, platform: windows, workspaceReal: 'C:\\ws', fs })).toMatchObject({
      path: 'C:\\bin\\gopls.exe',
    });
    expect(await resolveServer({ language: catalogLanguage('go'), env, platform: windows, workspaceReal: 'C:\\ws', fs, pathExt: ['.CMD'] })).toMatchObject({
      path: 'C:\\bin\\gopls.cmd',
    });
    expect(pathExtensions({}, windows)).toEqual(['.COM', '.EXE', '.BAT', '.CMD']);
    expect(launcherNames('gopls.exe', windows, ['.EXE'])).toEqual(['gopls.exe']);
    expect(launcherNames('gopls', posix, [])).toEqual(['gopls']);
  });

  it('S08 uses USERPROFILE when HOME is unset: managed root and USERPROFILE\\go\\bin', async () => {
    const env = { PATH: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me' };
    expect(taskHome(env, windows)).toBe('C:\\Users\\me');
    expect(managedRoot(env, windows)).toBe('C:\\Users\\me\\.kandev\\lsp-servers');
    const fs = windowsFs(['C:\\Users\\me\\go\\bin\\gopls.exe', 'C:\\Users\\me\\.kandev\\lsp-servers\\python\\node_modules\\.bin\\pyright-langserver.cmd']);
    expect(await resolveServer({ language: catalogLanguage('go'), env, platform: windows, workspaceReal: 'C:\\ws', fs })).toEqual({
      found: true,
      path: 'C:\\Users\\me\\go\\bin\\gopls.exe',
      source: 'go_bin',
    });
    expect(await resolveServer({ language: catalogLanguage('python'), env, platform: windows, workspaceReal: 'C:\\ws', fs })).toEqual({
      found: true,
      path: 'C:\\Users\\me\\.kandev\\lsp-servers\\python\\node_modules\\.bin\\pyright-langserver.cmd',
      source: 'managed',
    });
    // USERPROFILE is a Windows rule only; a POSIX task without HOME has no managed root.
    expect(taskHome({ USERPROFILE: '/home/me' }, posix)).toBeUndefined();
  });

  it('S57 on Windows: the workspace’s .kandev\\lsp-servers is refused case-insensitively', async () => {
    const fs = windowsFs(['C:\\Work\\Repo\\.kandev\\lsp-servers\\kotlin-lsp.cmd']);
    const r = await resolveServer({
      language: catalogLanguage('kotlin'),
      env: { PATH: 'c:\\work\\repo\\.kandev\\lsp-servers' },
      platform: windows,
      workspaceReal: 'C:\\Work\\Repo',
      fs,
    });
    expect(r.found).toBe(false);
  });
});
