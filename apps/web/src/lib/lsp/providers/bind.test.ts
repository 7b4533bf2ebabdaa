import { describe, expect, it } from 'vitest';
import { BuiltinSuppression } from '../builtins.js';
import { ServerCapabilityIndex } from '../capabilities.js';
import { Emitter, ManualClock, toDisposable } from '@kandev/kit';
import type { FeatureContext } from '../features.js';
import { createFakeMonaco, NO_CANCEL } from '../testing/fakeMonaco.js';
import { EditingRegistry } from '../editing/registry.js';
import { createMonacoFeatureBinder } from './bind.js';

function context(sessionId: string, capabilities: ServerCapabilityIndex, requests: string[] = [], refresh = new Emitter<void>()): FeatureContext {
  return {
    sessionId,
    language: 'typescript',
    generation: 1,
    capabilities,
    workspace: { workspaceUri: 'file:///workspace', workspacePath: '/workspace', repoSubpaths: [] },
    request: async (method) => {
      requests.push(method);
      return null as never;
    },
    failureOf: () => undefined,
    flush: () => undefined,
    isOpen: () => true,
    openPaths: () => [],
    clock: new ManualClock(),
    onSemanticTokensRefresh: refresh.event,
    onDiagnosticRefresh: new Emitter<void>().event,
    onInlayHintRefresh: new Emitter<void>().event,
    onCodeLensRefresh: new Emitter<void>().event,
    notify: () => undefined,
    onDocumentSync: new Emitter<{ path: string; kind: 'open' | 'change' | 'close' }>().event,
  };
}

const legend = { tokenTypes: ['class'], tokenModifiers: [] };

describe('provider binding', () => {
  it('S16 only advertised features get providers and suppress their built-in; omitted ones send nothing and stay built-in', async () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression, acquireModel: async () => undefined });
    const requests: string[] = [];
    bind(context('s1', new ServerCapabilityIndex({ hoverProvider: true, definitionProvider: true }), requests));
    expect(
      fake
        .active()
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['definition', 'hover']);
    const model = fake.addModel('kandev-session', 's1', '/a.ts');
    for (const feature of ['hover', 'definition', 'diagnostics'] as const) expect(suppression.isSuppressed(model, feature)).toBe(true);
    for (const feature of ['completion', 'references', 'signatureHelp'] as const) expect(suppression.isSuppressed(model, feature)).toBe(false);
    await fake
      .active()
      .find((r) => r.kind === 'hover')!
      .provider.provideHover(model, { lineNumber: 1, column: 1 }, NO_CANCEL);
    expect(requests).toEqual(['textDocument/hover']);
  });

  it('S21 signature help is registered only when advertised, with its trigger and retrigger characters', () => {
    const fake = createFakeMonaco();
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
    bind(context('s1', new ServerCapabilityIndex({ hoverProvider: true })));
    expect(fake.active().some((r) => r.kind === 'signatureHelp')).toBe(false);
    bind(context('s2', new ServerCapabilityIndex({ signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [')'] } })));
    const sig = fake.active().find((r) => r.kind === 'signatureHelp')!.provider;
    expect(sig.signatureHelpTriggerCharacters).toEqual(['(', ',']);
    expect(sig.signatureHelpRetriggerCharacters).toEqual([')']);
  });

  it('S17 semantic tokens: an empty array completes; a server refresh request fires the provider change event', async () => {
    const fake = createFakeMonaco();
    const refresh = new Emitter<void>();
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
    const ctx = {
      ...context('s1', new ServerCapabilityIndex({ semanticTokensProvider: { legend, full: true } }), [], refresh),
      request: async () => ({ data: [] }) as never,
    };
    bind(ctx);
    const provider = fake.active().find((r) => r.kind === 'semanticTokens')!.provider;
    expect(provider.getLegend()).toEqual(legend);
    const model = fake.addModel('kandev-session', 's1', '/a.ts');
    const asked = provider.provideDocumentSemanticTokens(model, null, NO_CANCEL);
    // Asked once typing pauses (SettledRequests on the connection's clock).
    (ctx.clock as ManualClock).advance(300);
    const tokens = await asked;
    expect(tokens.data.length).toBe(0);
    let fired = 0;
    provider.onDidChange(() => fired++);
    refresh.fire();
    expect(fired).toBe(1);
  });

  it('dynamic registrations add and remove providers without a new initialize', () => {
    const fake = createFakeMonaco();
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
    const capabilities = new ServerCapabilityIndex({});
    bind(context('s1', capabilities));
    expect(fake.active()).toEqual([]);
    capabilities.register([{ id: 'r', method: 'textDocument/references', registerOptions: {} }]);
    expect(fake.active().map((r) => r.kind)).toEqual(['references']);
    capabilities.unregister([{ id: 'r', method: 'textDocument/references' }]);
    expect(fake.active()).toEqual([]);
  });

  it('S30 disposing one connection removes only its providers, claims, markers and placeholder models', async () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    const released: string[] = [];
    const bind = createMonacoFeatureBinder({
      monaco: fake.monaco,
      suppression,
      acquireModel: async (sessionId, path) => toDisposable(() => void released.push(`${sessionId}:${path}`)),
    });
    const caps = () => new ServerCapabilityIndex({ hoverProvider: true, definitionProvider: true });
    const a = bind({
      ...context('sa', caps()),
      request: async () => ({ uri: 'file:///workspace/lib/x.ts', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }) as never,
    });
    const b = bind({
      ...context('sb', caps()),
      request: async () => ({ uri: 'file:///workspace/lib/x.ts', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } }) as never,
    });
    const ma = fake.addModel('kandev-session', 'sa', '/a.ts');
    const mb = fake.addModel('kandev-session', 'sb', '/a.ts');
    const defs = fake.active().filter((r) => r.kind === 'definition');
    const targetA = await defs[0]!.provider.provideDefinition(ma, { lineNumber: 1, column: 1 }, NO_CANCEL);
    await defs[1]!.provider.provideDefinition(mb, { lineNumber: 1, column: 1 }, NO_CANCEL);
    expect(String(targetA[0].uri)).toBe('kandev-session://sa/lib/x.ts');
    const diag = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'm' };
    a.publishDiagnostics({ uri: 'file:///workspace/a.ts', diagnostics: [diag] });
    b.publishDiagnostics({ uri: 'file:///workspace/a.ts', diagnostics: [diag] });
    expect(fake.editor.getModelMarkers({ resource: ma.uri })).toHaveLength(1);
    expect(fake.editor.getModelMarkers({ resource: mb.uri })).toHaveLength(1);

    a.dispose();
    expect(fake.editor.getModelMarkers({ resource: ma.uri })).toHaveLength(0);
    expect(fake.editor.getModelMarkers({ resource: mb.uri })).toHaveLength(1);
    expect(released).toEqual(['sa:lib/x.ts']);
    expect(suppression.isSuppressed(ma, 'hover')).toBe(false);
    expect(suppression.isSuppressed(mb, 'hover')).toBe(true);
    const remaining = fake.active();
    expect(remaining).toHaveLength(2);
    expect(await remaining.find((r) => r.kind === 'hover')!.provider.provideHover(ma, { lineNumber: 1, column: 1 }, NO_CANCEL)).toBeNull();
  });

  it('diagnostics land only on the owning session model', () => {
    const fake = createFakeMonaco();
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
    const a = bind(context('sa', new ServerCapabilityIndex({})));
    const ma = fake.addModel('kandev-session', 'sa', '/a.ts');
    const mb = fake.addModel('kandev-session', 'sb', '/a.ts');
    a.publishDiagnostics({
      uri: 'file:///workspace/a.ts',
      diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'x' }],
    });
    a.publishDiagnostics({
      uri: 'file:///elsewhere/a.ts',
      diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'y' }],
    });
    expect(fake.editor.getModelMarkers({ resource: ma.uri }).map((m) => m.message)).toEqual(['x']);
    expect(fake.editor.getModelMarkers({ resource: mb.uri })).toEqual([]);
  });
});

describe('editing features binding', () => {
  it('editing providers follow static and dynamic capabilities; inlay hints and on-type formatting follow the settings switches', () => {
    const fake = createFakeMonaco();
    let prefs = { formatOnSave: false, formatOnType: false, inlayHints: false, codeLens: false };
    const changed = new Emitter<void>();
    const bind = createMonacoFeatureBinder({
      monaco: fake.monaco,
      suppression: new BuiltinSuppression(),
      acquireModel: async () => undefined,
      preferences: { get: () => prefs, onDidChange: changed.event },
    });
    const capabilities = new ServerCapabilityIndex({
      documentSymbolProvider: true,
      renameProvider: { prepareProvider: true },
      codeActionProvider: { resolveProvider: true },
      documentFormattingProvider: true,
      documentRangeFormattingProvider: true,
      documentOnTypeFormattingProvider: { firstTriggerCharacter: ';' },
      documentHighlightProvider: true,
      foldingRangeProvider: true,
      inlayHintProvider: { resolveProvider: true },
    });
    bind(context('s1', capabilities));
    const kinds = () =>
      fake
        .active()
        .map((r) => r.kind)
        .sort();
    expect(kinds()).toEqual(['codeAction', 'documentHighlight', 'documentSymbol', 'foldingRange', 'formatting', 'rangeFormatting', 'rename']);
    prefs = { formatOnSave: false, formatOnType: true, inlayHints: true, codeLens: false };
    changed.fire();
    expect(kinds()).toEqual([
      'codeAction',
      'documentHighlight',
      'documentSymbol',
      'foldingRange',
      'formatting',
      'inlayHint',
      'onTypeFormatting',
      'rangeFormatting',
      'rename',
    ]);
    capabilities.register([
      { id: 'ws', method: 'workspace/symbol', registerOptions: {} },
      { id: 'pull', method: 'textDocument/diagnostic', registerOptions: { interFileDependencies: false, workspaceDiagnostics: false } },
    ]);
    expect(capabilities.registrations('workspaceSymbol')).toHaveLength(1);
    expect(capabilities.registrations('diagnostic')).toHaveLength(1);
  });

  it('a resumed generation rebuilds editing providers from the replayed registrations alone', () => {
    const fake = createFakeMonaco();
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
    const replayed = [
      { id: 'r1', method: 'textDocument/rename', registerOptions: { prepareProvider: true } },
      { id: 'c1', method: 'textDocument/codeAction', registerOptions: {} },
    ];
    bind(context('s1', new ServerCapabilityIndex({}, replayed)));
    expect(
      fake
        .active()
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['codeAction', 'rename']);
    expect(fake.active().find((r) => r.kind === 'rename')!.provider.resolveRenameLocation).toBeTypeOf('function');
  });

  it('every editing feature a server registered dynamically is rebuilt from the replayed registrations after a reattach', async () => {
    const fake = createFakeMonaco();
    const editing = new EditingRegistry();
    const prefs = { formatOnSave: true, formatOnType: true, inlayHints: true, codeLens: true };
    const bind = createMonacoFeatureBinder({
      monaco: fake.monaco,
      suppression: new BuiltinSuppression(),
      acquireModel: async () => undefined,
      editing,
      preferences: { get: () => prefs, onDidChange: new Emitter<void>().event },
    });
    const replayed = [
      ['documentSymbol', 'textDocument/documentSymbol', {}],
      ['rename', 'textDocument/rename', {}],
      ['codeAction', 'textDocument/codeAction', {}],
      ['formatting', 'textDocument/formatting', {}],
      ['rangeFormatting', 'textDocument/rangeFormatting', {}],
      ['onTypeFormatting', 'textDocument/onTypeFormatting', { firstTriggerCharacter: ';' }],
      ['documentHighlight', 'textDocument/documentHighlight', {}],
      ['foldingRange', 'textDocument/foldingRange', {}],
      ['inlayHint', 'textDocument/inlayHint', {}],
      ['workspaceSymbol', 'workspace/symbol', {}],
      ['diagnostic', 'textDocument/diagnostic', { interFileDependencies: false, workspaceDiagnostics: false }],
    ].map(([id, method, registerOptions]) => ({ id: id as string, method: method as string, registerOptions: registerOptions as object }));
    // No static capability at all: only the retained registrations of the `ready` (resumed) frame.
    const requests: string[] = [];
    const binding = bind(context('s1', new ServerCapabilityIndex({}, replayed), requests));
    expect(
      fake
        .active()
        .map((r) => r.kind)
        .sort(),
    ).toEqual([
      'codeAction',
      'documentHighlight',
      'documentSymbol',
      'foldingRange',
      'formatting',
      'inlayHint',
      'onTypeFormatting',
      'rangeFormatting',
      'rename',
    ]);
    expect(editing.documentSymbols.get('s1', 'typescript')).toHaveLength(1);
    expect(editing.workspaceSymbols.ofSession('s1')).toHaveLength(1);
    expect(editing.formatters.get('s1', 'typescript')).toHaveLength(1);
    await editing.workspaceSymbols.ofSession('s1')[0]!('x');
    expect(requests).toEqual(['workspace/symbol']);
    binding.dispose();
    expect(fake.active()).toEqual([]);
    expect(editing.workspaceSymbols.ofSession('s1')).toEqual([]);
  });

  it("the server's workspace/applyEdit goes to the session's atomic applier; a failure carries its reason", async () => {
    const fake = createFakeMonaco();
    const seen: unknown[] = [];
    const bind = createMonacoFeatureBinder({
      monaco: fake.monaco,
      suppression: new BuiltinSuppression(),
      acquireModel: async () => undefined,
      applyWorkspaceEdit: async (sid, workspaceUri, edit) => (seen.push([sid, workspaceUri, edit]), { applied: false, failureReason: 'conflict' }),
    });
    const binding = bind(context('s1', new ServerCapabilityIndex({})));
    expect(await binding.applyEdit({ edit: { changes: {} } })).toEqual({ applied: false, failureReason: 'conflict' });
    expect(seen).toEqual([['s1', 'file:///workspace', { changes: {} }]]);
    binding.dispose();
    expect(await binding.applyEdit({ edit: { changes: {} } })).toMatchObject({ applied: false });
    expect(seen).toHaveLength(1);
  });

  it('a confirmation still open when the generation ends is declined and nothing applies; its file operation participant leaves with it', async () => {
    const fake = createFakeMonaco();
    const editing = new EditingRegistry();
    const seen: unknown[] = [];
    const bind = createMonacoFeatureBinder({
      monaco: fake.monaco,
      suppression: new BuiltinSuppression(),
      acquireModel: async () => undefined,
      editing,
      applyWorkspaceEdit: async (_sid, _uri, edit) => (seen.push(edit), { applied: true }),
    });
    const binding = bind(context('s1', new ServerCapabilityIndex({})));
    expect(editing.fileOperations.ofSession('s1')).toHaveLength(1);
    const edit = {
      documentChanges: [
        {
          textDocument: { uri: 'file:///workspace/a.ts', version: null },
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'x', annotationId: 'a' }],
        },
      ],
      changeAnnotations: { a: { label: 'Ask first', needsConfirmation: true } },
    };
    const pending = binding.applyEdit({ edit });
    expect(editing.confirmations.getSnapshot().map((p) => [p.sessionId, p.groups[0]!.label])).toEqual([['s1', 'Ask first']]);
    binding.dispose();
    expect(await pending).toMatchObject({ applied: false });
    expect(seen).toEqual([]);
    expect(editing.confirmations.getSnapshot()).toEqual([]);
    expect(editing.fileOperations.ofSession('s1')).toEqual([]);
  });
});
