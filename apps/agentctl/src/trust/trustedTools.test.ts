import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findTrustedTools, tsserverNextTo } from './trustedTools.js';

const repoRoot = resolve(import.meta.dirname, '../../../..');
const launcher = join(repoRoot, 'node_modules/.bin/typescript-language-server');

describe('trusted tool pins', () => {
  it('finds the tsserver.js that typescript-language-server resolves from its own package', () => {
    expect(tsserverNextTo(launcher)).toBe(realpathSync(join(repoRoot, 'node_modules/typescript/lib/tsserver.js')));
    expect(tsserverNextTo('/nonexistent/typescript-language-server')).toBeUndefined();
  });

  it('never pins a tool inside the workspace', () => {
    expect(findTrustedTools('typescript', launcher, {}, '/elsewhere', 'linux').tsserverPath).toBeDefined();
    expect(findTrustedTools('typescript', launcher, {}, repoRoot, 'linux')).toEqual({});
    expect(findTrustedTools('go', launcher, {}, '/elsewhere', 'linux')).toEqual({});
  });

  it('pins python to the first interpreter on the (guarded) PATH', () => {
    expect(findTrustedTools('python', 'pyright-langserver', { PATH: '/usr/bin' }, '/elsewhere', 'linux').pythonPath).toBe('/usr/bin/python3');
    expect(findTrustedTools('python', 'pyright-langserver', { PATH: '/nonexistent' }, '/elsewhere', 'linux')).toEqual({});
  });
});
