import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillLauncherPaths, findLauncherPaths } from './launcherPaths.js';

const repoRoot = resolve(import.meta.dirname, '../../../..');
// A launcher whose package resolves the repository's TypeScript, as an installed server resolves its own.
const launcher = join(repoRoot, 'node_modules/.bin/typescript-language-server');
const typescriptLib = realpathSync(join(repoRoot, 'node_modules/typescript/lib'));

const initialize = (initializationOptions?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { processId: 1, ...(initializationOptions ? { initializationOptions } : {}) } });
const optionsOf = (text: string) => (JSON.parse(text) as { params: { initializationOptions?: Record<string, unknown> } }).params.initializationOptions;

describe('launcher paths', () => {
  it("finds the TypeScript library the launcher's own package resolves, for the languages that name one", () => {
    expect(findLauncherPaths('vue', launcher, '/elsewhere', 'linux')).toEqual({ 'typescript.tsdk': typescriptLib });
    expect(findLauncherPaths('astro', '/nonexistent/astro-ls', '/elsewhere', 'linux')).toEqual({ 'typescript.tsdk': undefined });
    // A language without launcher paths has nothing to fill, and its initialize is never rewritten.
    expect(findLauncherPaths('go', launcher, '/elsewhere', 'linux')).toBeUndefined();
  });

  it('never takes a path inside the workspace', () => {
    expect(findLauncherPaths('vue', launcher, repoRoot, 'linux')).toEqual({ 'typescript.tsdk': undefined });
  });

  it('trusted: fills the path beside the other options, and keeps a value the client sent', () => {
    const filled = optionsOf(fillLauncherPaths(initialize({ vue: { hybridMode: false } }), { 'typescript.tsdk': '/host/ts/lib' }, false));
    expect(filled).toEqual({ vue: { hybridMode: false }, typescript: { tsdk: '/host/ts/lib' } });
    expect(optionsOf(fillLauncherPaths(initialize(), { 'typescript.tsdk': '/host/ts/lib' }, false))).toEqual({ typescript: { tsdk: '/host/ts/lib' } });
    const chosen = { typescript: { tsdk: '/person/ts/lib' } };
    expect(optionsOf(fillLauncherPaths(initialize(chosen), { 'typescript.tsdk': '/host/ts/lib' }, false))).toEqual(chosen);
  });

  it("untrusted: the found path wins over the client's, and without one the client's is removed", () => {
    const workspaceCopy = { typescript: { tsdk: '/workspace/node_modules/typescript/lib', other: 1 } };
    expect(optionsOf(fillLauncherPaths(initialize(workspaceCopy), { 'typescript.tsdk': '/host/ts/lib' }, true))).toEqual({
      typescript: { tsdk: '/host/ts/lib', other: 1 },
    });
    expect(optionsOf(fillLauncherPaths(initialize(workspaceCopy), { 'typescript.tsdk': undefined }, true))).toEqual({ typescript: { other: 1 } });
  });

  it('leaves a text that does not decode as it came', () => {
    expect(fillLauncherPaths('{"jsonrpc":', { 'typescript.tsdk': '/host/ts/lib' }, true)).toBe('{"jsonrpc":');
  });
});
