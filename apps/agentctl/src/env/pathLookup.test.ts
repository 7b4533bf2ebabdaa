import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostFiles, rootedHostPath } from '../install/hostFs.js';
import { findOnPath } from './pathLookup.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kandev-lookup-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function touch(hostPath: string, mode = 0o755): void {
  mkdirSync(dirname(hostPath), { recursive: true });
  writeFileSync(hostPath, '');
  chmodSync(hostPath, mode);
}

describe('findOnPath', () => {
  it('S07: searches the task PATH, absolute entries only', () => {
    const host = rootedHostPath(root);
    const files = new HostFiles(host, 'linux');
    touch(host('/task/bin/go'));
    touch(host('rel/go'));
    expect(findOnPath('go', { PATH: 'rel:/task/bin' }, 'linux', files)).toBe('/task/bin/go');
    expect(findOnPath('go', { PATH: 'rel' }, 'linux', files)).toBeUndefined();
  });

  it('uses PATHEXT on Windows and the first directory that has a match', () => {
    const host = rootedHostPath(root);
    const files = new HostFiles(host, 'win32');
    touch(host('C:\\nodejs\\npm'), 0o644); // the sh script npm also ships: not a Windows launcher
    touch(host('C:\\nodejs\\npm.cmd'), 0o644);
    expect(findOnPath('npm', { Path: 'C:\\nodejs', PATHEXT: '.EXE;.CMD' }, 'win32', files)).toBe('C:\\nodejs\\npm.cmd');
    touch(host('C:\\Go\\bin\\go.exe'), 0o644);
    expect(findOnPath('go', { PATH: 'C:\\nodejs;C:\\Go\\bin' }, 'win32', files)).toBe('C:\\Go\\bin\\go.exe');
  });

  it('skips a file that is not executable on POSIX and goes on down the PATH', () => {
    const host = rootedHostPath(root);
    const files = new HostFiles(host, 'linux');
    touch(host('/a/npm'), 0o644);
    touch(host('/b/npm'));
    expect(findOnPath('npm', { PATH: '/a:/b' }, 'linux', files)).toBe('/b/npm');
  });
});
