import { describe, expect, it } from 'vitest';
import { positionOf, resolveOpenTarget } from './navigation.js';
import { WorkspaceIdentityStore } from './workspaceIdentity.js';

const uri = (scheme: string, authority: string, path: string) => ({ scheme, authority, path, toString: () => `${scheme}://${authority}${path}` });

describe('editor opener targets', () => {
  const identities = new WorkspaceIdentityStore();
  identities.set('s1', { workspaceUri: 'file:///workspace', workspacePath: '/workspace', repoSubpaths: ['repoA', 'repoB'] });
  const source = uri('kandev-session', 's1', '/repoA/src/main.ts');

  it('S36 an LSP target in an attached repository resolves to the task-root-relative identity the Files tree uses', () => {
    expect(resolveOpenTarget(uri('kandev-session', 's1', '/repoB/lib/x.ts'), source, identities)).toEqual({ sessionId: 's1', path: 'repoB/lib/x.ts' });
  });

  it('S38 a built-in file:// target inside the workspace opens the task file; outside it is unhandled', () => {
    expect(resolveOpenTarget(uri('file', '', '/workspace/repoA/util.ts'), source, identities)).toEqual({ sessionId: 's1', path: 'repoA/util.ts' });
    expect(resolveOpenTarget(uri('file', '', '/usr/lib/typescript/lib.d.ts'), source, identities)).toBeUndefined();
    expect(resolveOpenTarget(uri('https', 'example.invalid', '/x'), source, identities)).toBeUndefined();
  });

  it('S34 uses the handshake identity kept after the connection stopped; without one a file target is unhandled', () => {
    expect(resolveOpenTarget(uri('file', '', '/workspace/a.ts'), uri('kandev-session', 's2', '/a.ts'), identities)).toBeUndefined();
    identities.set('s2', { workspaceUri: 'file:///workspace', workspacePath: '/workspace', repoSubpaths: [] });
    expect(resolveOpenTarget(uri('file', '', '/workspace/a.ts'), uri('kandev-session', 's2', '/a.ts'), identities)).toEqual({ sessionId: 's2', path: 'a.ts' });
  });

  it('reads positions from selections and positions', () => {
    expect(positionOf({ startLineNumber: 3, startColumn: 4, endLineNumber: 3, endColumn: 9 })).toEqual({ lineNumber: 3, column: 4 });
    expect(positionOf({ lineNumber: 2, column: 1 })).toEqual({ lineNumber: 2, column: 1 });
    expect(positionOf(undefined)).toBeUndefined();
  });
});
