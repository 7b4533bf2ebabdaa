/* eslint-disable @typescript-eslint/no-explicit-any -- provider results read through fakes */
import { describe, expect, it } from 'vitest';
import { ServerCapabilityIndex } from '../capabilities.js';
import { DEFAULT_PREFERENCES } from '../editing/preferences.js';
import { fakeFeatureContext } from '../testing/featureContext.js';
import { createFakeMonaco, NO_CANCEL } from '../testing/fakeMonaco.js';
import { fakeProviderHost } from '../testing/providerHost.js';
import { registerCodeActionProvider, toLspDiagnostic } from './codeActions.js';
import { registerDocumentSymbolProvider, symbolPathAt, toMonacoDocumentSymbols, toOutline } from './documentSymbols.js';
import { registerFormattingProvider, registerOnTypeFormattingProvider, toMonacoTextEdits } from './formatting.js';
import { toMonacoFoldingRanges, toMonacoHighlights } from './highlights.js';
import { registerInlayHintsProvider, toMonacoInlayHint } from './inlayHints.js';
import { registerRenameProvider, toRenameLocation } from './rename.js';
import { EndpointClosedError, ErrorCodes, ResponseError } from '../jsonRpc.js';
import { registerWorkspaceSymbols } from './workspaceSymbols.js';

const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
const reg = <F extends string>(feature: F, options: Record<string, unknown> = {}) => ({ id: 'static', feature, options, documentSelector: null }) as any;
function setup(answer: (method: string, params: any) => unknown, caps: Record<string, unknown> = {}) {
  const fake = createFakeMonaco();
  const ctx = fakeFeatureContext({ capabilities: new ServerCapabilityIndex(caps), answer });
  const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'class A {\n  run() {}\n}\nconst foo = 1;\n');
  return { fake, ctx, model, host: fakeProviderHost(fake, ctx.context) };
}

describe('document symbols', () => {
  it('hierarchical answers keep their tree; flat answers nest by range containment (not by name)', () => {
    const tree = toOutline(
      [
        {
          name: 'A',
          kind: 5,
          range: r(0, 0, 2, 1),
          selectionRange: r(0, 6, 0, 7),
          children: [
            { name: 'zeta', kind: 7, range: r(1, 12, 1, 14), selectionRange: r(1, 12, 1, 14) },
            { name: 'run', kind: 6, range: r(1, 2, 1, 10), selectionRange: r(1, 2, 1, 5) },
          ],
        },
      ],
      'file:///workspace/src/a.ts',
    );
    // Children come back in document order whatever order the server used (tsserver sorts by name).
    expect(tree).toMatchObject([{ name: 'A', kind: 5, children: [{ name: 'run', kind: 6, children: [] }, { name: 'zeta' }] }]);
    const flat = toOutline(
      [
        { name: 'run', kind: 6, containerName: 'B', location: { uri: 'file:///workspace/src/a.ts', range: r(5, 2, 5, 10) } },
        { name: 'A', kind: 5, location: { uri: 'file:///workspace/src/a.ts', range: r(0, 0, 2, 1) } },
        { name: 'B', kind: 5, location: { uri: 'file:///workspace/src/a.ts', range: r(4, 0, 6, 1) } },
        { name: 'other', kind: 12, location: { uri: 'file:///workspace/src/b.ts', range: r(0, 0, 0, 1) } },
      ],
      'file:///workspace/src/a.ts',
    );
    expect(flat.map((s) => [s.name, s.children.map((c) => c.name)])).toEqual([
      ['A', []],
      ['B', ['run']],
    ]);
    expect(symbolPathAt(tree, { line: 1, character: 4 }).map((s) => s.name)).toEqual(['A', 'run']);
    expect(toMonacoDocumentSymbols(tree)[0]).toMatchObject({
      name: 'A',
      kind: 4,
      range: { startLineNumber: 1, endLineNumber: 3 },
      children: [
        { name: 'run', kind: 5 },
        { name: 'zeta', kind: 6 },
      ],
    });
    expect(toOutline(null, 'x')).toEqual([]);
  });

  it('the Monaco provider (quick outline) and the Outline source ask textDocument/documentSymbol of open files only', async () => {
    const { fake, ctx, model, host } = setup(() => [{ name: 'A', kind: 5, range: r(0, 0, 2, 1), selectionRange: r(0, 6, 0, 7) }]);
    registerDocumentSymbolProvider(host, reg('documentSymbol'));
    const provider = fake.active().find((x) => x.kind === 'documentSymbol')!.provider;
    expect((await provider.provideDocumentSymbols(model, NO_CANCEL))[0].name).toBe('A');
    const [source] = host.editing.documentSymbols.get('s1', 'typescript');
    expect((await source!('src/a.ts'))![0]!.name).toBe('A');
    expect(ctx.requests.map((q) => [q.method, q.params.textDocument.uri])).toEqual([
      ['textDocument/documentSymbol', 'file:///workspace/src/a.ts'],
      ['textDocument/documentSymbol', 'file:///workspace/src/a.ts'],
    ]);
  });
});

describe('rename', () => {
  it('prepareRename: a range, a placeholder, the default behaviour, or refusal', () => {
    const fake = createFakeMonaco();
    const model = fake.addModel('kandev-session', 's1', '/a.ts', 'const foo = 1;') as any;
    const pos = { lineNumber: 1, column: 8 };
    expect(toRenameLocation(r(0, 6, 0, 9), model, pos)).toEqual({
      range: { startLineNumber: 1, startColumn: 7, endLineNumber: 1, endColumn: 10 },
      text: 'foo',
    });
    expect(toRenameLocation({ range: r(0, 6, 0, 9), placeholder: 'F' }, model, pos)!.text).toBe('F');
    expect(toRenameLocation({ defaultBehavior: true }, model, pos)!.text).toBe('foo');
    expect(toRenameLocation(null, model, pos)).toBeUndefined();
  });

  it('F2 applies the WorkspaceEdit itself against the version it asked about and hands Monaco an empty edit; refusals show the reason', async () => {
    const edit = { changes: { 'file:///workspace/src/a.ts': [{ range: r(3, 6, 3, 9), newText: 'bar' }] } };
    const applied: any[] = [];
    const { fake, ctx, model, host } = setup((method) => (method === 'textDocument/prepareRename' ? null : edit));
    const h = {
      ...host,
      applyEdit: async (e: any, expect: any) => (
        applied.push([e, [...expect]]),
        applied.length === 1 ? { applied: true as const } : { applied: false as const, failureReason: 'conflict!' }
      ),
    };
    registerRenameProvider(h, reg('rename', { prepareProvider: true }));
    const provider = fake.active().find((x) => x.kind === 'rename')!.provider;
    expect(await provider.provideRenameEdits(model, { lineNumber: 4, column: 8 }, 'bar', NO_CANCEL)).toEqual({ edits: [] });
    expect(applied[0]).toEqual([edit, [['src/a.ts', 1]]]);
    expect(ctx.requests[0]).toMatchObject({ method: 'textDocument/rename', params: { position: { line: 3, character: 7 }, newName: 'bar' } });
    expect(await provider.provideRenameEdits(model, { lineNumber: 4, column: 8 }, 'bar', NO_CANCEL)).toEqual({ edits: [], rejectReason: 'conflict!' });
    expect(await provider.resolveRenameLocation(model, { lineNumber: 4, column: 8 }, NO_CANCEL)).toMatchObject({ rejectReason: 'rename.notHere' });
  });
});

describe('code actions', () => {
  it('markers go back as LSP diagnostics with numeric codes; a quick fix resolves, applies its edit, then runs its command', async () => {
    expect(
      toLspDiagnostic({
        severity: 8,
        message: 'Cannot find name',
        startLineNumber: 2,
        startColumn: 3,
        endLineNumber: 2,
        endColumn: 6,
        code: '2304',
        source: 'ts',
      } as any),
    ).toEqual({
      range: r(1, 2, 1, 5),
      message: 'Cannot find name',
      severity: 1,
      code: 2304,
      source: 'ts',
    });
    const edit = { changes: { 'file:///workspace/src/a.ts': [{ range: r(0, 0, 0, 0), newText: 'import { x } from "./x";\n' }] } };
    const { fake, ctx, model, host } = setup((method) => {
      if (method === 'textDocument/codeAction')
        return [
          { title: 'Add import', kind: 'quickfix', isPreferred: true, data: 1 },
          { title: 'Organize', command: 'org', arguments: [1] },
        ];
      if (method === 'codeAction/resolve') return { title: 'Add import', kind: 'quickfix', edit, command: { title: 'after', command: 'after.cmd' } };
      return null;
    });
    const applied: any[] = [];
    registerCodeActionProvider(
      { ...host, applyEdit: async (e: any) => (applied.push(e), { applied: true as const }) },
      reg('codeAction', { resolveProvider: true, codeActionKinds: ['quickfix'] }),
    );
    const entry = fake.active().find((x) => x.kind === 'codeAction')!;
    const list = await entry.provider.provideCodeActions(
      model,
      { startLineNumber: 2, startColumn: 3, endLineNumber: 2, endColumn: 6 },
      { markers: [], trigger: 1 },
      NO_CANCEL,
    );
    expect(list.actions.map((a: any) => [a.title, a.kind, a.isPreferred])).toEqual([
      ['Add import', 'quickfix', true],
      ['Organize', undefined, undefined],
    ]);
    expect(ctx.requests[0]!.params.context).toEqual({ diagnostics: [], triggerKind: 1 });
    await fake.executeCommand(list.actions[0].command.id, ...list.actions[0].command.arguments);
    expect(applied).toEqual([edit]);
    await fake.executeCommand(list.actions[1].command.id, ...list.actions[1].command.arguments);
    expect(ctx.requests.map((q) => q.method)).toEqual([
      'textDocument/codeAction',
      'codeAction/resolve',
      'workspace/executeCommand',
      'workspace/executeCommand',
    ]);
    expect(ctx.requests[2]!.params).toEqual({ command: 'after.cmd', arguments: undefined });
    expect(ctx.requests[3]!.params).toEqual({ command: 'org', arguments: [1] });
  });

  it('an edit that cannot be applied is reported and its command does not run', async () => {
    const { fake, ctx, model, host } = setup((method) =>
      method === 'textDocument/codeAction' ? [{ title: 'Fix', edit: { changes: {} }, command: { title: 'x', command: 'x' } }] : null,
    );
    registerCodeActionProvider({ ...host, applyEdit: async () => ({ applied: false as const, failureReason: 'changed on disk' }) }, reg('codeAction'));
    const provider = fake.active().find((x) => x.kind === 'codeAction')!.provider;
    const list = await provider.provideCodeActions(
      model,
      { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 },
      { markers: [], trigger: 2 },
      NO_CANCEL,
    );
    await fake.executeCommand(list.actions[0].command.id, ...list.actions[0].command.arguments);
    expect(host.notices).toEqual(['changed on disk']);
    expect(ctx.requests.map((q) => q.method)).toEqual(['textDocument/codeAction']);
  });
});

describe('formatting, highlights, folding', () => {
  it('maps text edits, highlight kinds and folding ranges', () => {
    expect(toMonacoTextEdits([{ range: r(0, 0, 0, 2), newText: '  ' }, { newText: 'bad' } as any])).toEqual([
      { range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 3 }, text: '  ' },
    ]);
    expect(toMonacoHighlights([{ range: r(0, 0, 0, 1), kind: 3 }, { range: r(1, 0, 1, 1), kind: 2 }, { range: r(2, 0, 2, 1) }]).map((h) => h.kind)).toEqual([
      2, 1, 0,
    ]);
    expect(
      toMonacoFoldingRanges(
        [
          { startLine: 0, endLine: 2, kind: 'comment' },
          { startLine: 3, endLine: 3 },
        ],
        (k) => (k === 'comment' ? ('C' as any) : undefined),
      ),
    ).toEqual([{ start: 1, end: 3, kind: 'C' }]);
  });

  it('format document asks with the editor options and feeds format on save; on-type only when switched on', async () => {
    const { fake, ctx, model, host } = setup(() => [{ range: r(0, 0, 0, 0), newText: '// x\n' }]);
    registerFormattingProvider(host, reg('formatting'));
    const edits = await fake
      .active()
      .find((x) => x.kind === 'formatting')!
      .provider.provideDocumentFormattingEdits(model, { tabSize: 2, insertSpaces: true }, NO_CANCEL);
    expect(edits).toEqual([{ range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 }, text: '// x\n' }]);
    expect(ctx.requests[0]!.params.options).toEqual({ tabSize: 2, insertSpaces: true });
    expect(await host.editing.formatters.get('s1', 'typescript')[0]!('src/a.ts', { tabSize: 4, insertSpaces: false })).toHaveLength(1);
    registerOnTypeFormattingProvider(host, reg('onTypeFormatting', { firstTriggerCharacter: ';' }));
    expect(fake.active().some((x) => x.kind === 'onTypeFormatting')).toBe(false);
    registerOnTypeFormattingProvider(
      { ...host, preferences: () => ({ ...DEFAULT_PREFERENCES, formatOnType: true }) },
      reg('onTypeFormatting', { firstTriggerCharacter: ';', moreTriggerCharacter: ['}'] }),
    );
    expect(fake.active().find((x) => x.kind === 'onTypeFormatting')!.provider.autoFormatTriggerCharacters).toEqual([';', '}']);
  });
});

describe('inlay hints', () => {
  it('off by default; when on, hints map and resolve through inlayHint/resolve with the original hint', async () => {
    const original = { position: { line: 3, character: 9 }, label: ': number', kind: 1, paddingLeft: true, data: 7 };
    const { fake, ctx, model, host } = setup((method) => (method === 'textDocument/inlayHint' ? [original] : { ...original, tooltip: 'the type' }));
    registerInlayHintsProvider(host, reg('inlayHint', { resolveProvider: true }));
    expect(fake.active().some((x) => x.kind === 'inlayHint')).toBe(false);
    registerInlayHintsProvider({ ...host, preferences: () => ({ ...DEFAULT_PREFERENCES, inlayHints: true }) }, reg('inlayHint', { resolveProvider: true }));
    const provider = fake.active().find((x) => x.kind === 'inlayHint')!.provider;
    const list = await provider.provideInlayHints(model, { startLineNumber: 1, startColumn: 1, endLineNumber: 5, endColumn: 1 }, NO_CANCEL);
    expect(list.hints).toEqual([{ label: ': number', position: { lineNumber: 4, column: 10 }, kind: 1, paddingLeft: true }]);
    const resolved = await provider.resolveInlayHint(list.hints[0], NO_CANCEL);
    expect(resolved.tooltip).toBe('the type');
    expect(ctx.requests[1]).toMatchObject({ method: 'inlayHint/resolve', params: original });
    expect(toMonacoInlayHint({ position: { line: 0, character: 0 }, label: [{ value: 'a' }, { value: 'b', tooltip: 't' }] } as any)!.label).toEqual([
      { label: 'a' },
      { label: 'b', tooltip: 't' },
    ]);
  });
});

describe('workspace symbols', () => {
  it('searches workspace/symbol; a symbol without a range resolves through workspaceSymbol/resolve', async () => {
    const { ctx, host } = setup((method) =>
      method === 'workspace/symbol'
        ? [
            { name: 'Foo', kind: 5, location: { uri: 'file:///workspace/lib/foo.ts' }, data: 1 },
            { name: 'Bar', kind: 12, containerName: 'm', location: { uri: 'file:///workspace/bar.ts', range: r(1, 0, 1, 3) } },
          ]
        : { name: 'Foo', kind: 5, location: { uri: 'file:///workspace/lib/foo.ts', range: r(4, 0, 4, 3) } },
    );
    registerWorkspaceSymbols(host, reg('workspaceSymbol', { resolveProvider: true }));
    const [search] = host.editing.workspaceSymbols.ofSession('s1');
    const items = await search!('fo');
    expect(items.map((i) => [i.name, i.path, i.range?.start.line, typeof i.resolve])).toEqual([
      ['Foo', 'lib/foo.ts', undefined, 'function'],
      ['Bar', 'bar.ts', 1, 'undefined'],
    ]);
    expect((await items[0]!.resolve!()).range).toEqual(r(4, 0, 4, 3));
    expect(ctx.requests.map((q) => q.method)).toEqual(['workspace/symbol', 'workspaceSymbol/resolve']);
  });
});

describe('rename that got no answer', () => {
  const deadlineError = new ResponseError(ErrorCodes.RequestCancelled, 'the language server did not answer within 2 s', { requestDeadlineMs: 2_000 });
  async function refusals(error: unknown, connectionLost = false) {
    const fake = createFakeMonaco();
    const ctx = fakeFeatureContext({
      capabilities: new ServerCapabilityIndex({}),
      connectionLost,
      answer: () => {
        throw error;
      },
    });
    const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'const foo = 1;\n');
    const host = fakeProviderHost(fake, ctx.context);
    registerRenameProvider(host, reg('rename', { prepareProvider: true }));
    const provider = fake.active().find((x) => x.kind === 'rename')!.provider;
    const edits = await provider.provideRenameEdits(model, { lineNumber: 1, column: 8 }, 'bar', NO_CANCEL);
    // Monaco only logs the refusal of the edits: the person reads it in the notice.
    expect(host.notices).toEqual([edits.rejectReason]);
    const location = await provider.resolveRenameLocation(model, { lineNumber: 1, column: 8 }, NO_CANCEL);
    return [edits.rejectReason, location.rejectReason];
  }

  it("past the broker's deadline: the toast's words for a rename timeout, not the broker's English", async () => {
    const told = `failure ${JSON.stringify({ feature: 'rename', reason: 'timeout', deadlineMs: 2_000 })}`;
    expect(await refusals(deadlineError)).toEqual([told, told]);
  });

  it("a server's own refusal is shown as it wrote it; an error without a word and a lost connection in the toast's words", async () => {
    const refusal = 'You cannot rename this element.';
    expect(await refusals(new ResponseError(-32803, refusal))).toEqual([refusal, refusal]);
    const noWord = `failure ${JSON.stringify({ feature: 'rename', reason: 'error', detail: '' })}`;
    expect(await refusals(new ResponseError(-32603, '  '))).toEqual([noWord, noWord]);
    const lost = `failure ${JSON.stringify({ feature: 'rename', reason: 'lost' })}`;
    expect(await refusals(new EndpointClosedError(), true)).toEqual([lost, lost]);
    // Ended by the person (a Stop): nothing to explain beyond the usual refusal.
    expect(await refusals(new EndpointClosedError(), false)).toEqual(['rename.failed', 'rename.notHere']);
  });

  it('a rename the person cancelled says nothing', async () => {
    const fake = createFakeMonaco();
    const ctx = fakeFeatureContext({
      capabilities: new ServerCapabilityIndex({}),
      answer: () => {
        throw new ResponseError(ErrorCodes.RequestCancelled, 'cancelled');
      },
    });
    const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'const foo = 1;\n');
    const host = fakeProviderHost(fake, ctx.context);
    registerRenameProvider(host, reg('rename'));
    const provider = fake.active().find((x) => x.kind === 'rename')!.provider;
    expect(await provider.provideRenameEdits(model, { lineNumber: 1, column: 8 }, 'bar', { isCancellationRequested: true })).toEqual({ edits: [] });
    expect(host.notices).toEqual([]);
  });
});
