import { describe, expect, it } from 'vitest';
import { parseSessionModelUri, serverFileUri, sessionModelUriParts, workspaceRelativePath } from './uris.js';

describe('session model URIs and task-host file URIs', () => {
  it('S32 two sessions rooted at the same task-host folder get distinct models and the same clean server URI', () => {
    const a = sessionModelUriParts('session-a', 'src/index.ts');
    const b = sessionModelUriParts('session-b', 'src/index.ts');
    expect(a).toEqual({ scheme: 'kandev-session', authority: 'session-a', path: '/src/index.ts' });
    expect(a).not.toEqual(b);
    expect(serverFileUri('file:///workspace', parseSessionModelUri(a)!.path)).toBe('file:///workspace/src/index.ts');
    expect(serverFileUri('file:///workspace/', parseSessionModelUri(b)!.path)).toBe('file:///workspace/src/index.ts');
  });

  it('maps server URIs back to workspace-relative paths, canonically, and refuses outside paths', () => {
    expect(workspaceRelativePath('file:///w', 'file:///w/repoA/lib/x.go')).toBe('repoA/lib/x.go');
    expect(workspaceRelativePath('file:///C:/w', 'file:///c%3A/w/a.ts')).toBe('a.ts');
    expect(workspaceRelativePath('file:///w', 'file:///other/x.go')).toBeUndefined();
    expect(workspaceRelativePath('file:///w', 'file:///w')).toBeUndefined();
    expect(workspaceRelativePath('file:///w', 'untitled:1')).toBeUndefined();
    expect(serverFileUri('file:///w', 'dir with space/a#b.ts')).toBe('file:///w/dir%20with%20space/a%23b.ts');
  });

  it('parses only session URIs with a path inside the workspace', () => {
    expect(parseSessionModelUri({ scheme: 'file', authority: '', path: '/a.ts' })).toBeUndefined();
    expect(parseSessionModelUri({ scheme: 'kandev-session', authority: 's', path: '/../a.ts' })).toBeUndefined();
    expect(parseSessionModelUri({ scheme: 'kandev-session', authority: 's', path: '/a/b.ts' })).toEqual({ sessionId: 's', path: 'a/b.ts' });
  });
});
