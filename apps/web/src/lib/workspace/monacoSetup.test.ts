/* eslint-disable @typescript-eslint/no-explicit-any -- test fakes and assertions, as test/** allows */
import { describe, expect, it } from 'vitest';
import { BuiltinSuppression } from '../lsp/builtins.js';
import { createFakeMonaco, FakeUri } from '../lsp/testing/fakeMonaco.js';
import type { OpenTarget } from './navigation.js';
import { WorkspaceIdentityStore } from './workspaceIdentity.js';
import { setupMonaco } from './monacoSetup.js';

/** The fake Monaco plus the editor opener and theme calls setupMonaco makes. */
function monacoWithOpener() {
  const fake = createFakeMonaco();
  let opener: { openCodeEditor(source: any, resource: any, selectionOrPosition?: any): boolean } | undefined;
  const themes: string[] = [];
  Object.assign(fake.editor, {
    registerEditorOpener: (o: typeof opener) => {
      opener = o;
      return { dispose: () => (opener = undefined) };
    },
    registerLinkOpener: () => ({ dispose: () => undefined }),
    setTheme: (theme: string) => void themes.push(theme),
    defineTheme: (name: string) => void themes.push(`defined:${name}`),
  });
  return { fake, themes, open: (...args: Parameters<NonNullable<typeof opener>['openCodeEditor']>) => opener!.openCodeEditor(...args) };
}

const editorOn = (uri: FakeUri) => ({ getModel: () => ({ uri }) });
const fileUri = (path: string) => Object.assign(new FakeUri('file', '', path), { toString: () => `file://${path}` });

describe('Monaco setup: guards and the editor opener', () => {
  function setup() {
    const { fake, themes, open } = monacoWithOpener();
    const identities = new WorkspaceIdentityStore();
    identities.set('s1', { workspaceUri: 'file:///tasks/t1', workspacePath: '/tasks/t1', repoSubpaths: ['repoA', 'repoB'] });
    const navigations: Array<{ target: OpenTarget; position: unknown }> = [];
    const disposables = setupMonaco(fake.monaco, {
      suppression: new BuiltinSuppression(),
      identities,
      navigate: (target, position) => void navigations.push({ target, position }),
    });
    return { fake, themes, open, navigations, disposables };
  }

  it('S36 a session model target opens that session file at the selection start', () => {
    const { open, navigations } = setup();
    const source = editorOn(new FakeUri('kandev-session', 's1', '/repoA/src/main.kt'));
    const selection = { startLineNumber: 4, startColumn: 5, endLineNumber: 4, endColumn: 9 };
    expect(open(source, new FakeUri('kandev-session', 's1', '/repoB/lib/util.kt'), selection)).toBe(true);
    expect(navigations).toEqual([{ target: { sessionId: 's1', path: 'repoB/lib/util.kt' }, position: { lineNumber: 4, column: 5 } }]);
  });

  it('S38 a built-in file:// target inside the source session workspace opens the task file; outside it is unhandled', () => {
    const { open, navigations } = setup();
    const source = editorOn(new FakeUri('kandev-session', 's1', '/repoA/src/main.ts'));
    expect(open(source, fileUri('/tasks/t1/repoB/types.d.ts'), { lineNumber: 2, column: 3 })).toBe(true);
    expect(navigations).toEqual([{ target: { sessionId: 's1', path: 'repoB/types.d.ts' }, position: { lineNumber: 2, column: 3 } }]);
    expect(open(source, fileUri('/usr/lib/node_modules/typescript/lib/lib.dom.d.ts'))).toBe(false);
    expect(open(source, fileUri('/tasks/t10/x.ts'))).toBe(false);
    expect(navigations).toHaveLength(1);
  });

  it('S34 without a handshake identity for the source session a file:// target is unhandled', () => {
    const { open, navigations } = setup();
    expect(open(editorOn(new FakeUri('kandev-session', 's2', '/a.ts')), fileUri('/tasks/t1/a.ts'))).toBe(false);
    expect(open(editorOn(new FakeUri('inmemory', 'model', '/1')), fileUri('/tasks/t1/a.ts'))).toBe(false);
    expect(navigations).toEqual([]);
  });

  it('S14 guards are installed before any provider registers, and disposing them restores Monaco', () => {
    const { fake, themes, disposables } = setup();
    const original = { provideHover: () => 'builtin' };
    fake.languages.registerHoverProvider('typescript', original);
    expect(fake.registered[0]!.provider).not.toBe(original); // wrapped
    expect(themes).toEqual(['defined:kandev-dark', 'defined:kandev-light', 'vs']);
    for (const d of disposables) d.dispose();
    fake.languages.registerHoverProvider('typescript', original);
    expect(fake.registered[1]!.provider).toBe(original);
  });
});
