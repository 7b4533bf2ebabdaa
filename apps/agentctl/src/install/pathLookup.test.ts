import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostFiles, rootedHostPath } from './hostFs.js';
import { commandLine, findOnPath } from './pathLookup.js';

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
});

describe('commandLine', () => {
  it('runs a Windows .cmd through the command interpreter, quoting arguments with spaces', () => {
    const line = commandLine('C:\\Program Files\\nodejs\\npm.cmd', ['install', '--prefix', 'C:\\Users\\A B\\x'], { ComSpec: 'C:\\Windows\\System32\\cmd.exe' }, 'win32');
    expect(line.command).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(line.args).toEqual(['/d', '/s', '/c', '""C:\\Program Files\\nodejs\\npm.cmd" install --prefix "C:\\Users\\A B\\x""']);
    expect(line.windowsVerbatimArguments).toBe(true);
  });

  it('spawns everything else directly', () => {
    expect(commandLine('/usr/bin/npm', ['install'], {}, 'linux')).toEqual({ command: '/usr/bin/npm', args: ['install'], windowsVerbatimArguments: false });
    expect(commandLine('C:\\Go\\bin\\go.exe', ['env'], {}, 'win32').command).toBe('C:\\Go\\bin\\go.exe');
  });
});
