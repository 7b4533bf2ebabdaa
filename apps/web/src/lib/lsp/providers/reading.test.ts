/* eslint-disable @typescript-eslint/no-explicit-any -- provider results read through fakes */
import { describe, expect, it, vi } from 'vitest';
import { editorFeatureDefault, effectiveServerConfig } from '@kandev/protocol';
import { FEATURES, ServerCapabilityIndex } from '../capabilities.js';
import { clientCapabilities } from '../clientCapabilities.js';
import { DEFAULT_PREFERENCES, preferencesOf } from '../editing/preferences.js';
import { fakeFeatureContext } from '../testing/featureContext.js';
import { createFakeMonaco, FakeUri, NO_CANCEL } from '../testing/fakeMonaco.js';
import { fakeProviderHost } from '../testing/providerHost.js';
import { registerCodeLensProvider, serverExecutes } from './codeLens.js';
import { SHOW_REFERENCES, toMonacoCodeLens } from './codeLensMapping.js';
import { registerColorProvider, toMonacoColorInformation, toMonacoColorPresentation } from './colors.js';
import { linkTarget, registerDocumentLinkProvider, toMonacoLink } from './documentLinks.js';
import { registerLinkedEditingRangeProvider, toMonacoLinkedEditingRanges } from './linkedEditing.js';
import { registerSelectionRangeProvider, toMonacoSelectionRanges } from './selectionRanges.js';
import { createLinkOpener, fragmentPosition, linkOpening } from '../../workspace/linkOpener.js';

const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const reg = <F extends string>(feature: F, options: Record<string, unknown> = {}) => ({ id: 'static', feature, options, documentSelector: null }) as any;
/** Server file URIs inside /workspace become the session's model URIs, as the real binder maps them. */
const toModelUri = (u: string) =>
  u.startsWith('file:///workspace/') ? new FakeUri('kandev-session', 's1', u.slice('file:///workspace'.length)) : FakeUri.parse(u);

function setup(answer: (method: string, params: any) => unknown, caps: Record<string, unknown> = {}, codeLens = true) {
  const fake = createFakeMonaco();
  const ctx = fakeFeatureContext({ capabilities: new ServerCapabilityIndex(caps), answer });
  const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'class A {}\n');
  const preloaded: string[][] = [];
  const host = fakeProviderHost(fake, ctx.context, {
    toModelUri: toModelUri as any,
    preferences: () => ({ ...DEFAULT_PREFERENCES, codeLens }),
    preload: async (uris) => void preloaded.push([...uris]),
  });
  return { fake, ctx, model, host, preloaded };
}

describe('capabilities of the reading features', () => {
  it('each feature is served only when the server advertises it, statically or by registration', () => {
    const index = new ServerCapabilityIndex({ codeLensProvider: { resolveProvider: true }, colorProvider: true });
    expect(index.activeFeatures()).toEqual(['codeLens', 'color']);
    index.register([
      { id: 'l', method: 'textDocument/linkedEditingRange', registerOptions: { documentSelector: [{ language: 'html' }] } },
      { id: 's', method: 'textDocument/selectionRange' },
      { id: 'd', method: 'textDocument/documentLink', registerOptions: { resolveProvider: true } },
    ]);
    expect(index.activeFeatures()).toEqual(['codeLens', 'documentLink', 'color', 'selectionRange', 'linkedEditingRange']);
    expect(FEATURES).toContain('linkedEditingRange');
  });

  it('the client advertises them (lens refresh included) now that they are served', () => {
    const caps = clientCapabilities();
    expect(caps.textDocument).toMatchObject({
      codeLens: { dynamicRegistration: true },
      documentLink: { dynamicRegistration: true, tooltipSupport: true },
      colorProvider: { dynamicRegistration: true },
      selectionRange: { dynamicRegistration: true },
      linkedEditingRange: { dynamicRegistration: true },
    });
    expect(caps.workspace?.codeLens).toEqual({ refreshSupport: true });
  });

  it('code lenses default as in VS Code: TypeScript off (and its counts asked for only when on), the rest on', () => {
    expect(editorFeatureDefault('typescript', 'code_lens')).toBe(false);
    expect(editorFeatureDefault('go', 'code_lens')).toBe(true);
    expect(editorFeatureDefault('go', 'inlay_hints')).toBe(false);
    expect(preferencesOf(undefined, 'go').codeLens).toBe(true);
    expect(preferencesOf({ lsp_editor_features: { go: { code_lens: false } } }, 'go').codeLens).toBe(false);
    expect(preferencesOf(undefined, 'typescript').codeLens).toBe(false);
    expect(effectiveServerConfig('typescript', undefined, undefined)).toBeUndefined();
    expect(effectiveServerConfig('typescript', undefined, { code_lens: true })).toEqual({
      typescript: { referencesCodeLens: { enabled: true, showOnAllFunctions: false }, implementationsCodeLens: { enabled: true } },
      javascript: { referencesCodeLens: { enabled: true, showOnAllFunctions: false }, implementationsCodeLens: { enabled: true } },
    });
    // The person's JSON still wins over what the switch implies.
    expect(effectiveServerConfig('typescript', { typescript: { referencesCodeLens: { enabled: false } } }, { code_lens: true })).toMatchObject({
      typescript: { referencesCodeLens: { enabled: false } },
    });
  });
});

describe('code lenses', () => {
  const runs = (name: string) => name === 'gopls.generate';

  it('maps a server command to its Monaco command by handle, a reference peek to Monaco peek, others to labels', () => {
    const server = toMonacoCodeLens(
      { range: r(2, 0, 2, 4), command: { title: 'run go generate', command: 'gopls.generate', arguments: [1] } },
      7,
      'cmd',
      runs,
      toModelUri as any,
    );
    expect(server).toEqual({
      range: { startLineNumber: 3, startColumn: 1, endLineNumber: 3, endColumn: 5 },
      id: '7',
      command: { id: 'cmd', title: 'run go generate', arguments: [7] },
    });
    const unknown = toMonacoCodeLens({ range: r(0, 0, 0, 1), command: { title: 'vendor', command: 'gopls.vendor' } }, 8, 'cmd', runs, toModelUri as any);
    expect(unknown?.command).toEqual({ id: '', title: 'vendor' });
    const peek = toMonacoCodeLens(
      {
        range: r(0, 6, 0, 7),
        command: {
          title: '2 references',
          command: SHOW_REFERENCES,
          arguments: ['file:///workspace/src/a.ts', { line: 0, character: 6 }, [{ uri: 'file:///workspace/src/b.ts', range: r(3, 1, 3, 2) }, { bad: true }]],
        },
      },
      9,
      'cmd',
      runs,
      toModelUri as any,
    );
    expect(peek?.command?.id).toBe(SHOW_REFERENCES);
    const [uri, position, locations] = peek!.command!.arguments as any[];
    expect(String(uri)).toBe('kandev-session://s1/src/a.ts');
    expect(position).toEqual({ lineNumber: 1, column: 7 });
    expect(locations.map((l: any) => [String(l.uri), l.range.startLineNumber])).toEqual([['kandev-session://s1/src/b.ts', 4]]);
    const none = toMonacoCodeLens(
      {
        range: r(0, 6, 0, 7),
        command: { title: '0 references', command: SHOW_REFERENCES, arguments: ['file:///workspace/src/a.ts', { line: 0, character: 6 }, []] },
      },
      10,
      'cmd',
      runs,
      toModelUri as any,
    );
    expect(none?.command).toEqual({ id: '', title: '0 references' });
    // Unresolved (no command) and cancelled (empty title) lenses carry no command; a lens without a range is dropped.
    expect(toMonacoCodeLens({ range: r(0, 0, 0, 1), data: 1 } as any, 11, 'cmd', runs, toModelUri as any)?.command).toBeUndefined();
    expect(toMonacoCodeLens({ range: r(0, 0, 0, 1), command: { title: '', command: '' } }, 12, 'cmd', runs, toModelUri as any)?.command).toBeUndefined();
    expect(toMonacoCodeLens({ command: { title: 'x', command: 'y' } } as any, 13, 'cmd', runs, toModelUri as any)).toBeUndefined();
  });

  it('knows the commands a server executes, from its static capability and its registrations', () => {
    const index = new ServerCapabilityIndex({ executeCommandProvider: { commands: ['a'] } });
    index.register([{ id: 'x', method: 'workspace/executeCommand', registerOptions: { commands: ['b'] } }]);
    expect(['a', 'b', 'c'].map((c) => serverExecutes(index, c))).toEqual([true, true, false]);
  });

  it('is registered only when the language switch is on', () => {
    const off = setup(() => null, { codeLensProvider: {} }, false);
    registerCodeLensProvider(off.host, reg('codeLens'));
    expect(off.fake.active().filter((p) => p.kind === 'codeLens')).toHaveLength(0);
    const on = setup(() => null, { codeLensProvider: {} });
    registerCodeLensProvider(on.host, reg('codeLens'));
    expect(on.fake.active().filter((p) => p.kind === 'codeLens')).toHaveLength(1);
  });

  it('resolves lazily, loads a peek target, runs a server command through workspace/executeCommand, and asks again on refresh', async () => {
    const { fake, ctx, model, host, preloaded } = setup(
      (method, params) => {
        if (method === 'textDocument/codeLens')
          return [
            { range: r(0, 6, 0, 7), data: 'refs' },
            { range: r(0, 0, 0, 1), command: { title: 'tidy', command: 'gopls.tidy', arguments: [{ uri: 'x' }] } },
          ];
        if (method === 'codeLens/resolve')
          return {
            ...params,
            command: {
              title: '1 reference',
              command: SHOW_REFERENCES,
              arguments: ['file:///workspace/src/a.ts', r(0, 6, 0, 6).start, [{ uri: 'file:///workspace/src/c.ts', range: r(1, 0, 1, 1) }]],
            },
          };
        return null;
      },
      { codeLensProvider: { resolveProvider: true }, executeCommandProvider: { commands: ['gopls.tidy'] } },
    );
    registerCodeLensProvider(host, reg('codeLens', { resolveProvider: true }));
    const provider = fake.active().find((p) => p.kind === 'codeLens')!.provider;
    const list = await provider.provideCodeLenses(model, NO_CANCEL);
    expect(list.lenses.map((l: any) => l.command?.title)).toEqual([undefined, 'tidy']);
    expect(ctx.requests.filter((q) => q.method === 'codeLens/resolve')).toHaveLength(0);
    const resolved = await provider.resolveCodeLens(model, list.lenses[0], NO_CANCEL);
    expect(ctx.requests.find((q) => q.method === 'codeLens/resolve')?.params).toEqual({ range: r(0, 6, 0, 7), data: 'refs' });
    expect(resolved.command.title).toBe('1 reference');
    expect(preloaded.at(-1)).toEqual(['file:///workspace/src/c.ts']);

    await fake.executeCommand(list.lenses[1].command.id, ...list.lenses[1].command.arguments);
    expect(ctx.requests.at(-1)).toMatchObject({ method: 'workspace/executeCommand', params: { command: 'gopls.tidy', arguments: [{ uri: 'x' }] } });

    let refreshed = 0;
    provider.onDidChange(() => refreshed++);
    ctx.refresh.codeLens.fire();
    expect(refreshed).toBe(1);
  });

  it('asks and hands over lenses only while the page is drawn (a background tab gets them when it is back); a tab hidden again meanwhile keeps them back', async () => {
    const { fake, ctx, model, host } = setup((method) => (method === 'textDocument/codeLens' ? [{ range: r(0, 6, 0, 7), data: 'refs' }] : null), {
      codeLensProvider: { resolveProvider: true },
    });
    const draws: ((drawing: boolean) => void)[] = [];
    host.whenDrawing = () => new Promise((resolve) => draws.push(resolve));
    registerCodeLensProvider(host, reg('codeLens', { resolveProvider: true }));
    const provider = fake.active().find((p) => p.kind === 'codeLens')!.provider;
    let list: any;
    const asked = provider.provideCodeLenses(model, NO_CANCEL).then((value: unknown) => (list = value));
    await Promise.resolve();
    expect(ctx.requests.filter((q) => q.method === 'textDocument/codeLens')).toHaveLength(0);
    draws.shift()!(true);
    await vi.waitFor(() => expect(draws).toHaveLength(1));
    expect(ctx.requests.filter((q) => q.method === 'textDocument/codeLens')).toHaveLength(1);
    expect(list).toBeUndefined();
    draws.shift()!(true);
    await asked;
    expect(list.lenses).toHaveLength(1);

    // Cancelled while waiting (Monaco asked again): nothing is asked, nothing handed over.
    const cancelled = provider.provideCodeLenses(model, NO_CANCEL);
    await vi.waitFor(() => expect(draws).toHaveLength(1));
    draws.shift()!(false);
    expect(await cancelled).toBeNull();
    expect(ctx.requests.filter((q) => q.method === 'textDocument/codeLens')).toHaveLength(1);
  });

  it('a failing command is said to the person, not swallowed', async () => {
    const { fake, model, host } = setup(
      (method) => {
        if (method === 'textDocument/codeLens') return [{ range: r(0, 0, 0, 1), command: { title: 'generate', command: 'gopls.generate' } }];
        if (method === 'workspace/executeCommand') throw new Error('go generate failed');
        return null;
      },
      { executeCommandProvider: { commands: ['gopls.generate'] } },
    );
    registerCodeLensProvider(host, reg('codeLens'));
    const provider = fake.active().find((p) => p.kind === 'codeLens')!.provider;
    const list = await provider.provideCodeLenses(model, NO_CANCEL);
    await fake.executeCommand(list.lenses[0].command.id, ...list.lenses[0].command.arguments);
    expect(host.notices).toEqual(['go generate failed']);
  });
});

describe('document links', () => {
  const inWorkspace = (u: string) => {
    const m = toModelUri(u);
    return m.scheme === 'file' ? undefined : (m as any);
  };

  it('keeps http(s) pages and workspace files (with a line fragment); drops file: outside, javascript:, data:, command:', () => {
    expect(linkTarget('https://pkg.go.dev/fmt', inWorkspace)).toEqual({ kind: 'external', url: 'https://pkg.go.dev/fmt' });
    expect(linkTarget('file:///workspace/include/util.h', inWorkspace)).toEqual({ kind: 'workspace', url: 'kandev-session://s1/include/util.h' });
    expect(linkTarget('file:///workspace/a.ts#L12,3', inWorkspace)).toEqual({ kind: 'workspace', url: 'kandev-session://s1/a.ts#L12,3' });
    expect(linkTarget('file:///workspace/a.ts#<script>', inWorkspace)).toEqual({ kind: 'workspace', url: 'kandev-session://s1/a.ts' });
    for (const bad of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      'command:editor.action.x',
      'vscode://x',
      'http://[bad',
    ]) {
      expect(linkTarget(bad, inWorkspace), bad).toBeUndefined();
    }
    expect(toMonacoLink({ range: r(0, 9, 0, 17), target: 'file:///workspace/util.h', tooltip: 'util.h' }, false, inWorkspace)).toEqual({
      range: { startLineNumber: 1, startColumn: 10, endLineNumber: 1, endColumn: 18 },
      url: 'kandev-session://s1/util.h',
      tooltip: 'util.h',
    });
    expect(toMonacoLink({ range: r(0, 0, 0, 1) }, false, inWorkspace)).toBeUndefined();
    expect(toMonacoLink({ range: r(0, 0, 0, 1) }, true, inWorkspace)).toEqual({
      range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 2 },
    });
  });

  it('resolves a target-less link through documentLink/resolve, under the same policy', async () => {
    const { fake, model, host } = setup((method, params) => {
      if (method === 'textDocument/documentLink')
        return [
          { range: r(0, 0, 0, 5), data: 1 },
          { range: r(1, 0, 1, 5), data: 2 },
        ];
      if (method === 'documentLink/resolve') return { ...params, target: params.data === 1 ? 'file:///workspace/b.ts' : 'javascript:alert(1)' };
      return null;
    });
    registerDocumentLinkProvider(host, reg('documentLink', { resolveProvider: true }));
    const provider = fake.active().find((p) => p.kind === 'documentLink')!.provider;
    const { links } = await provider.provideLinks(model, NO_CANCEL);
    expect(links).toHaveLength(2);
    expect((await provider.resolveLink(links[0], NO_CANCEL)).url).toBe('kandev-session://s1/b.ts');
    expect(await provider.resolveLink(links[1], NO_CANCEL)).toBeNull();
  });

  it('the window link opener opens http(s) in a new tab, a session file as its tab, hands file: to the editor opener, refuses the rest', () => {
    const opened: string[] = [];
    const files: unknown[] = [];
    const opener = createLinkOpener({
      openWindow: (url) => void opened.push(url),
      openSessionFile: (uri, position) => (files.push([uri.authority, uri.path, position]), true),
    });
    const uri = (scheme: string, text: string, fragment = '') => ({ scheme, authority: 's1', path: '/a.ts', fragment, toString: () => text });
    expect(opener.open(uri('https', 'https://example.com/a?b=c'))).toBe(true);
    expect(opener.open(uri('kandev-session', 'kandev-session://s1/a.ts', 'L12,3'))).toBe(true);
    expect(opener.open(uri('file', 'file:///workspace/a.ts'))).toBe(false);
    for (const scheme of ['javascript', 'data', 'command', 'mailto', 'vscode']) expect(opener.open(uri(scheme, `${scheme}:x`)), scheme).toBe(true);
    expect(opened).toEqual(['https://example.com/a?b=c']);
    expect(files).toEqual([['s1', '/a.ts', { lineNumber: 12, column: 3 }]]);
    expect(linkOpening({ scheme: 'HTTP' })).toBe('new_tab');
    expect(fragmentPosition('L7')).toEqual({ lineNumber: 7, column: 1 });
    expect(fragmentPosition('x')).toBeUndefined();
  });
});

describe('colors, selection ranges and linked editing', () => {
  it('maps colors and presentations; a malformed color is dropped', async () => {
    expect(toMonacoColorInformation({ range: r(0, 7, 0, 14), color: { red: 1, green: 0, blue: 0, alpha: 1 } })).toEqual({
      range: { startLineNumber: 1, startColumn: 8, endLineNumber: 1, endColumn: 15 },
      color: { red: 1, green: 0, blue: 0, alpha: 1 },
    });
    expect(toMonacoColorInformation({ range: r(0, 0, 0, 1), color: { red: 1 } } as any)).toBeUndefined();
    expect(toMonacoColorPresentation({ label: 'rgb(255, 0, 0)', textEdit: { range: r(0, 7, 0, 14), newText: 'rgb(255, 0, 0)' } })).toEqual({
      label: 'rgb(255, 0, 0)',
      textEdit: { range: { startLineNumber: 1, startColumn: 8, endLineNumber: 1, endColumn: 15 }, text: 'rgb(255, 0, 0)' },
    });
    const { fake, ctx, model, host } = setup((method) => (method === 'textDocument/colorPresentation' ? [{ label: '#00ff00' }] : null));
    registerColorProvider(host, reg('color'));
    const provider = fake.active().find((p) => p.kind === 'color')!.provider;
    const info = { range: { startLineNumber: 1, startColumn: 8, endLineNumber: 1, endColumn: 15 }, color: { red: 0, green: 1, blue: 0, alpha: 1 } };
    expect(await provider.provideColorPresentations(model, info, NO_CANCEL)).toEqual([{ label: '#00ff00' }]);
    expect(ctx.requests.at(-1)?.params).toEqual({ textDocument: { uri: 'file:///workspace/src/a.ts' }, color: info.color, range: r(0, 7, 0, 14) });
  });

  it("colors asked the moment the provider registers, before the generation opens its documents, are the server's", async () => {
    const fake = createFakeMonaco();
    let open = false;
    const answer = (method: string) =>
      method === 'textDocument/documentColor' ? [{ range: r(0, 7, 0, 14), color: { red: 1, green: 0, blue: 0, alpha: 1 } }] : null;
    const ctx = fakeFeatureContext({ capabilities: new ServerCapabilityIndex({ colorProvider: true }), answer, open: () => open });
    const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'class A {}\n');
    const host = fakeProviderHost(fake, ctx.context, { toModelUri: toModelUri as any });
    registerColorProvider(host, reg('color'));
    // As Monaco's colour detector does on registration; the activation then opens the documents in the same step.
    const asked = fake
      .active()
      .find((p) => p.kind === 'color')!
      .provider.provideDocumentColors(model, NO_CANCEL);
    open = true;
    expect(await asked).toEqual([
      { range: { startLineNumber: 1, startColumn: 8, endLineNumber: 1, endColumn: 15 }, color: { red: 1, green: 0, blue: 0, alpha: 1 } },
    ]);
    expect(ctx.requests.map((q) => q.method)).toEqual(['textDocument/documentColor']);
  });

  it('a selection range chain becomes innermost-first, bounded; an answer of the wrong length is none', async () => {
    expect(
      toMonacoSelectionRanges({ range: r(0, 1, 0, 2), parent: { range: r(0, 0, 0, 5), parent: { range: r(0, 0, 2, 0) } } }).map((s) => s.range.endColumn),
    ).toEqual([3, 6, 1]);
    const loop: any = { range: r(0, 0, 0, 1) };
    loop.parent = loop;
    expect(toMonacoSelectionRanges(loop)).toHaveLength(256);
    const { fake, model, host } = setup(() => [{ range: r(0, 0, 0, 1) }]);
    registerSelectionRangeProvider(host, reg('selectionRange'));
    const provider = fake.active().find((p) => p.kind === 'selectionRange')!.provider;
    expect(await provider.provideSelectionRanges(model, [{ lineNumber: 1, column: 1 }], NO_CANCEL)).toHaveLength(1);
    expect(
      await provider.provideSelectionRanges(
        model,
        [
          { lineNumber: 1, column: 1 },
          { lineNumber: 1, column: 2 },
        ],
        NO_CANCEL,
      ),
    ).toBeNull();
  });

  it('linked editing ranges keep a compilable word pattern only', async () => {
    expect(toMonacoLinkedEditingRanges({ ranges: [r(0, 1, 0, 4), r(0, 10, 0, 13)], wordPattern: '[a-z]+' })?.wordPattern).toEqual(/[a-z]+/);
    expect(toMonacoLinkedEditingRanges({ ranges: [r(0, 1, 0, 4)], wordPattern: '(' })).toEqual({
      ranges: [{ startLineNumber: 1, startColumn: 2, endLineNumber: 1, endColumn: 5 }],
    });
    expect(toMonacoLinkedEditingRanges({ ranges: [] })).toBeUndefined();
    expect(toMonacoLinkedEditingRanges(null)).toBeUndefined();
    const { fake, ctx, model, host } = setup(() => ({ ranges: [r(0, 1, 0, 4)] }));
    registerLinkedEditingRangeProvider(host, reg('linkedEditingRange'));
    const provider = fake.active().find((p) => p.kind === 'linkedEditingRange')!.provider;
    expect((await provider.provideLinkedEditingRanges(model, { lineNumber: 1, column: 3 }, NO_CANCEL)).ranges).toHaveLength(1);
    expect(ctx.requests.at(-1)?.params.position).toEqual({ line: 0, character: 2 });
  });
});
