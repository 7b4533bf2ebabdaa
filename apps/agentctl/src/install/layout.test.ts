import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootedHostPath } from './hostFs.js';
import { findManagedBinary, goBinDirs, managedRoot } from './layout.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kandev-layout-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function touch(hostPath: string, mode = 0o755): void {
  mkdirSync(dirname(hostPath), { recursive: true });
  writeFileSync(hostPath, '#!/bin/sh\n');
  chmodSync(hostPath, mode);
}

describe('managedRoot', () => {
  it('S09: uses the task HOME, never the process HOME', () => {
    expect(managedRoot({ HOME: '/tasks/t1/home' }, 'linux')).toBe('/tasks/t1/home/.kandev/lsp-servers');
    expect(managedRoot({}, 'linux')).toBeUndefined();
  });

  it('refuses a relative HOME (it would resolve against the repository)', () => {
    expect(managedRoot({ HOME: 'home' }, 'linux')).toBeUndefined();
    expect(managedRoot({ HOME: '' }, 'linux')).toBeUndefined();
  });

  it('falls back to USERPROFILE on Windows only, and only when HOME is not absolute', () => {
    expect(managedRoot({ USERPROFILE: 'C:\\Users\\me' }, 'win32')).toBe('C:\\Users\\me\\.kandev\\lsp-servers');
    expect(managedRoot({ HOME: 'D:\\home', USERPROFILE: 'C:\\Users\\me' }, 'win32')).toBe('D:\\home\\.kandev\\lsp-servers');
    expect(managedRoot({ HOME: '\\nodrive', USERPROFILE: 'C:\\Users\\me' }, 'win32')).toBe('C:\\Users\\me\\.kandev\\lsp-servers');
    expect(managedRoot({ USERPROFILE: '/home/me' }, 'linux')).toBeUndefined();
  });

  it('reads Windows variables case-insensitively', () => {
    expect(managedRoot({ UserProfile: 'C:\\Users\\me' }, 'win32')).toBe('C:\\Users\\me\\.kandev\\lsp-servers');
  });
});

describe('gopls discovery', () => {
  it('S07: follows GOBIN, every absolute GOPATH entry, then HOME/go/bin, in Go order', () => {
    expect(goBinDirs({ GOBIN: '/gobin', GOPATH: '/gp1:rel:/gp2', HOME: '/h' }, 'linux')).toEqual(['/gobin', '/gp1/bin', '/gp2/bin', '/h/go/bin']);
    expect(goBinDirs({ GOBIN: 'relative/bin' }, 'linux')).toEqual([]);
  });

  it('S07: finds gopls in a later GOPATH entry when GOBIN has none', () => {
    const host = rootedHostPath(root);
    touch(host('/gp2/bin/gopls'));
    expect(findManagedBinary('go', { GOBIN: '/gobin', GOPATH: '/gp1:/gp2' }, 'linux', host)).toBe('/gp2/bin/gopls');
  });

  it('ignores a file that is not executable on POSIX', () => {
    const host = rootedHostPath(root);
    touch(host('/gobin/gopls'), 0o644);
    expect(findManagedBinary('go', { GOBIN: '/gobin' }, 'linux', host)).toBeUndefined();
  });

  it('S08: with only USERPROFILE set on Windows, finds USERPROFILE\\go\\bin\\gopls.exe', () => {
    const host = rootedHostPath(root);
    const env = { USERPROFILE: 'C:\\Users\\me' };
    expect(findManagedBinary('go', env, 'win32', host)).toBeUndefined();
    touch(host('C:\\Users\\me\\go\\bin\\gopls.exe'), 0o644); // no X bit on Windows: existence is enough
    expect(findManagedBinary('go', env, 'win32', host)).toBe('C:\\Users\\me\\go\\bin\\gopls.exe');
  });

  it('S08: splits a Windows GOPATH on semicolons', () => {
    expect(goBinDirs({ GOPATH: 'C:\\gp1;D:\\gp2', USERPROFILE: 'C:\\Users\\me' }, 'win32')).toEqual(['C:\\gp1\\bin', 'D:\\gp2\\bin', 'C:\\Users\\me\\go\\bin']);
  });
});

describe('managed layout', () => {
  it('S10: on Windows the npm launcher is the concrete .cmd shim', () => {
    const host = rootedHostPath(root);
    const env = { USERPROFILE: 'C:\\Users\\me' };
    touch(host('C:\\Users\\me\\.kandev\\lsp-servers\\typescript\\node_modules\\.bin\\typescript-language-server'), 0o644);
    expect(findManagedBinary('typescript', env, 'win32', host)).toBeUndefined(); // the extensionless sh shim is not launchable there
    touch(host('C:\\Users\\me\\.kandev\\lsp-servers\\typescript\\node_modules\\.bin\\typescript-language-server.cmd'), 0o644);
    expect(findManagedBinary('typescript', env, 'win32', host)).toBe(
      'C:\\Users\\me\\.kandev\\lsp-servers\\typescript\\node_modules\\.bin\\typescript-language-server.cmd',
    );
  });

  it('finds a published rust-analyzer, and never looks for kotlin in the managed root', () => {
    const host = rootedHostPath(root);
    touch(host('/h/.kandev/lsp-servers/rust/rust-analyzer'));
    touch(host('/h/.kandev/lsp-servers/kotlin/kotlin-lsp'));
    expect(findManagedBinary('rust', { HOME: '/h' }, 'linux', host)).toBe('/h/.kandev/lsp-servers/rust/rust-analyzer');
    expect(findManagedBinary('kotlin', { HOME: '/h' }, 'linux', host)).toBeUndefined();
  });
});
