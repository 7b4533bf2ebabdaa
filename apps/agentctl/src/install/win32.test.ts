import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rootedHostPath, type ToHostPath } from './hostFs.js';
import { findManagedBinary, installLanguageServer, InstallLock, type SpawnFn } from './index.js';

/**
 * Windows task hosts, exercised on Linux: the platform is injected as win32, Windows paths map
 * under a temporary root (rootedHostPath), and `npm.cmd` / `go.exe` are played by small node
 * processes that write what the real tools would, where the real tools would.
 */
let root: string;
let host: ToHostPath;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kandev-win32-'));
  host = rootedHostPath(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function touch(windowsPath: string): void {
  mkdirSync(dirname(host(windowsPath)), { recursive: true });
  writeFileSync(host(windowsPath), '');
}

interface Call {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** Runs `node -e <code> <args...>` in place of the Windows tool, keeping the runner's spawn options. */
function nodeStandIn(code: string, args: string[], options: SpawnOptions) {
  return spawn(process.execPath, ['-e', code, ...args], { stdio: options.stdio, detached: options.detached });
}

const WRITE_FILE = `const fs=require('fs'),p=require('path');fs.mkdirSync(p.dirname(process.argv[1]),{recursive:true});fs.writeFileSync(process.argv[1],process.argv[2]);console.log('wrote',process.argv[1])`;

function fakeWindowsTools(calls: Call[]): SpawnFn {
  return (command, args, options) => {
    const env = options.env ?? {};
    calls.push({ command, args, env });
    if (/cmd\.exe$/i.test(command)) {
      // npm.cmd through cmd.exe /d /s /c "..." : install into --prefix like npm does, .cmd shim included.
      const prefix = /--prefix "?([^" ]+)"?/.exec(args[3] ?? '')?.[1] ?? '';
      const bin = /pyright/.test(args[3] ?? '') ? 'pyright-langserver' : 'typescript-language-server';
      return nodeStandIn(WRITE_FILE, [host(`${prefix}\\node_modules\\.bin\\${bin}.cmd`), '@ECHO off\r\nnode "%~dp0\\..\\x\\index.js" %*\r\n'], options);
    }
    if (/go\.exe$/i.test(command) && args[0] === 'env') {
      // Go's defaults on Windows: GOPATH = %USERPROFILE%\go, no GOBIN.
      const gopath = `${env.USERPROFILE}\\go`;
      return nodeStandIn('console.log(process.argv[1])', [JSON.stringify({ GOBIN: '', GOPATH: gopath })], options);
    }
    if (/go\.exe$/i.test(command) && args[0] === 'install') {
      return nodeStandIn(WRITE_FILE, [host(`${env.GOBIN}\\gopls.exe`), 'MZ'], options);
    }
    throw new Error(`unexpected spawn ${command} ${args.join(' ')}`);
  };
}

const signal = () => new AbortController().signal;

describe('Windows task hosts (platform injected as win32)', () => {
  it('S10: an npm install returns the concrete .cmd shim, and a later request reuses it without reinstalling', async () => {
    const calls: Call[] = [];
    const env = {
      USERPROFILE: 'C:\\Users\\me',
      Path: 'C:\\Program Files\\nodejs',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      ComSpec: 'C:\\Windows\\System32\\cmd.exe',
      AGENTCTL_TOKEN: 'secret',
    };
    touch('C:\\Program Files\\nodejs\\npm');
    touch('C:\\Program Files\\nodejs\\npm.cmd');
    const deps = { spawn: fakeWindowsTools(calls), toHostPath: host, lock: new InstallLock() };
    const expected = 'C:\\Users\\me\\.kandev\\lsp-servers\\python\\node_modules\\.bin\\pyright-langserver.cmd';

    const first = await installLanguageServer({ language: 'python', env, platform: 'win32', signal: signal() }, deps);
    expect(first).toEqual({ ok: true, value: expected });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.command).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(calls[0]!.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(calls[0]!.args[3]).toMatch(
      /^""C:\\Program Files\\nodejs\\npm\.cmd" install --prefix C:\\Users\\me\\\.kandev\\lsp-servers\\\.staging-python-[0-9a-f]+ .* pyright@1"$/,
    );
    expect(calls[0]!.env.AGENTCTL_TOKEN).toBeUndefined();

    const again = await installLanguageServer({ language: 'python', env, platform: 'win32', signal: signal() }, deps);
    expect(again).toEqual({ ok: true, value: expected });
    expect(calls).toHaveLength(1);
    expect(findManagedBinary('python', env, 'win32', host)).toBe(expected);
    expect(readdirSync(host('C:\\Users\\me\\.kandev\\lsp-servers'))).toEqual(['python']); // staging gone
  });

  it('S08: with only USERPROFILE set, go install publishes gopls.exe under USERPROFILE\\go\\bin and auto-install succeeds', async () => {
    const calls: Call[] = [];
    const env = { USERPROFILE: 'C:\\Users\\me', Path: 'C:\\Program Files\\Go\\bin', GOPROXY: 'https://proxy.example' };
    touch('C:\\Program Files\\Go\\bin\\go.exe');
    const deps = { spawn: fakeWindowsTools(calls), toHostPath: host, lock: new InstallLock() };

    const outcome = await installLanguageServer({ language: 'go', env, platform: 'win32', signal: signal() }, deps);
    expect(outcome).toEqual({ ok: true, value: 'C:\\Users\\me\\go\\bin\\gopls.exe' });
    expect(calls.map((c) => [c.command, ...c.args])).toEqual([
      ['C:\\Program Files\\Go\\bin\\go.exe', 'env', '-json', 'GOBIN', 'GOPATH'],
      ['C:\\Program Files\\Go\\bin\\go.exe', 'install', 'golang.org/x/tools/gopls@latest'],
    ]);
    // Go ran with the task's own environment; only GOBIN points into staging inside the destination.
    expect(calls[1]!.env.GOPROXY).toBe('https://proxy.example');
    expect(calls[1]!.env.USERPROFILE).toBe('C:\\Users\\me');
    expect(calls[1]!.env.GOBIN).toMatch(/^C:\\Users\\me\\go\\bin\\\.staging-gopls-[0-9a-f]+$/);
    expect(findManagedBinary('go', env, 'win32', host)).toBe('C:\\Users\\me\\go\\bin\\gopls.exe');
    expect(readdirSync(host('C:\\Users\\me\\go\\bin'))).toEqual(['gopls.exe']); // staging gone

    const again = await installLanguageServer({ language: 'go', env, platform: 'win32', signal: signal() }, deps);
    expect(again).toEqual(outcome);
    expect(calls).toHaveLength(2);
  });

  it('S11: rust on a Windows task host has no installer and says how to install it by hand', async () => {
    const calls: Call[] = [];
    const outcome = await installLanguageServer(
      { language: 'rust', env: { USERPROFILE: 'C:\\Users\\me' }, platform: 'win32', signal: signal() },
      { spawn: fakeWindowsTools(calls), toHostPath: host, fetch: () => Promise.reject(new Error('no download expected')) },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'no_installer' } });
    expect((outcome as { error: { guidance: string } }).error.guidance).toMatch(/rust-analyzer.*Windows.*PATH/s);
    expect(calls).toEqual([]);
  });

  it('S03: kotlin never has an installer, on any platform', async () => {
    for (const platform of ['win32', 'linux', 'darwin'] as const) {
      const outcome = await installLanguageServer({ language: 'kotlin', env: { HOME: '/h' }, platform, signal: signal() }, { spawn: fakeWindowsTools([]) });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'no_installer' } });
      expect((outcome as { error: { guidance: string } }).error.guidance).toMatch(/kotlin-lsp/);
    }
  });
});
