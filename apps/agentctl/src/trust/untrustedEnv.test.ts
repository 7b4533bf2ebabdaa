import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideWorkspacePath, untrustedEnvOverrides } from './untrustedEnv.js';

describe('untrusted server environment', () => {
  const ws = mkdtempSync(join(tmpdir(), 'kandev-trust-ws-'));
  mkdirSync(join(ws, '.venv/bin'), { recursive: true });
  const outside = mkdtempSync(join(tmpdir(), 'kandev-trust-out-'));
  const linkToWs = join(outside, 'link');
  symlinkSync(join(ws, '.venv/bin'), linkToWs);

  it('drops relative PATH entries and every entry inside the workspace, even through a symlink', () => {
    const env = { PATH: ['.venv/bin', '', '.', `${ws}/.venv/bin`, ws, linkToWs, '/usr/bin', '/bin'].join(':') };
    expect(outsideWorkspacePath(env, ws, 'linux')).toBe('/usr/bin:/bin');
  });

  it('pins GOTOOLCHAIN=local for gopls only', () => {
    expect(untrustedEnvOverrides('go', { PATH: '/usr/bin' }, ws, 'linux')).toEqual({ PATH: '/usr/bin', GOTOOLCHAIN: 'local' });
    expect(untrustedEnvOverrides('typescript', { PATH: '/usr/bin', GOTOOLCHAIN: 'auto' }, ws, 'linux')).toEqual({ PATH: '/usr/bin' });
  });

  it('rust: empties the cargo rustc wrappers, pins RUSTC to the rustc on the guarded PATH, stops rustup auto-installs', () => {
    const files = { isLaunchable: (p: string) => p === '/opt/rust/bin/rustc' || p === `${ws}/bin/rustc` };
    expect(untrustedEnvOverrides('rust', { PATH: `${ws}/bin:/opt/rust/bin` }, ws, 'linux', files)).toEqual({
      PATH: '/opt/rust/bin',
      RUSTC_WRAPPER: '',
      RUSTC_WORKSPACE_WRAPPER: '',
      RUSTUP_AUTO_INSTALL: '0',
      RUSTC: '/opt/rust/bin/rustc',
    });
  });

  it('keeps the Windows spelling of Path and compares folders case-insensitively', () => {
    const env = { Path: 'C:\\Work\\Repo\\bin;C:\\Windows\\System32' };
    expect(untrustedEnvOverrides('python', env, 'c:\\work\\repo', 'win32')).toEqual({ Path: 'C:\\Windows\\System32' });
  });
});
