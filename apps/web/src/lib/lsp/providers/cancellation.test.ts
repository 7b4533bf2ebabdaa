/* eslint-disable @typescript-eslint/no-explicit-any -- providers are driven through the fake Monaco */
import { describe, expect, it } from 'vitest';
import { CancelSource } from '../cancellation.js';
import { ServerCapabilityIndex } from '../capabilities.js';
import { DEFAULT_PREFERENCES } from '../editing/preferences.js';
import { fakeFeatureContext } from '../testing/featureContext.js';
import { createFakeMonaco } from '../testing/fakeMonaco.js';
import { fakeProviderHost } from '../testing/providerHost.js';
import { registerCodeActionProvider } from './codeActions.js';
import { registerDocumentSymbolProvider } from './documentSymbols.js';
import { registerFormattingProvider, registerOnTypeFormattingProvider, registerRangeFormattingProvider } from './formatting.js';
import { registerDocumentHighlightProvider, registerFoldingRangeProvider } from './highlights.js';
import { registerInlayHintsProvider } from './inlayHints.js';
import { registerRenameProvider } from './rename.js';
import { registerWorkspaceSymbols } from './workspaceSymbols.js';

/**
 * a request Monaco supersedes (the caret moved, the text changed, the menu closed) is
 * cancelled with `$/cancelRequest`, as for the first release's features. The JSON-RPC layer turns
 * a cancelled token into `$/cancelRequest` (jsonRpc.test.ts) and the broker maps its id
 * (broker.requests.test.ts): what each new provider must do is hand Monaco's token to its request.
 */
const reg = (feature: string, options: Record<string, unknown> = {}) => ({ id: 'static', feature, options, documentSelector: null }) as any;
const range = { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 4 };
const position = { lineNumber: 1, column: 2 };
const formatting = { tabSize: 2, insertSpaces: true };

function setup(answer: () => unknown = () => null) {
  const fake = createFakeMonaco();
  const ctx = fakeFeatureContext({ capabilities: new ServerCapabilityIndex({}), answer });
  const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'const foo = 1;\n');
  const host = fakeProviderHost(fake, ctx.context);
  const switchedOn = { ...host, preferences: () => ({ ...DEFAULT_PREFERENCES, formatOnType: true, inlayHints: true }) };
  return { fake, ctx, model, host, switchedOn };
}

type Call = (provider: any, model: any, token: unknown) => Promise<unknown>;
const cases: Array<[string, (s: ReturnType<typeof setup>) => void, string, Call]> = [
  [
    'textDocument/documentSymbol',
    (s) => registerDocumentSymbolProvider(s.host, reg('documentSymbol')),
    'documentSymbol',
    (p, m, t) => p.provideDocumentSymbols(m, t),
  ],
  [
    'textDocument/prepareRename',
    (s) => registerRenameProvider(s.host, reg('rename', { prepareProvider: true })),
    'rename',
    (p, m, t) => p.resolveRenameLocation(m, position, t),
  ],
  ['textDocument/rename', (s) => registerRenameProvider(s.host, reg('rename')), 'rename', (p, m, t) => p.provideRenameEdits(m, position, 'bar', t)],
  [
    'textDocument/codeAction',
    (s) => registerCodeActionProvider(s.host, reg('codeAction')),
    'codeAction',
    (p, m, t) => p.provideCodeActions(m, range, { markers: [], trigger: 2 }, t),
  ],
  [
    'textDocument/formatting',
    (s) => registerFormattingProvider(s.host, reg('formatting')),
    'formatting',
    (p, m, t) => p.provideDocumentFormattingEdits(m, formatting, t),
  ],
  [
    'textDocument/rangeFormatting',
    (s) => registerRangeFormattingProvider(s.host, reg('rangeFormatting')),
    'rangeFormatting',
    (p, m, t) => p.provideDocumentRangeFormattingEdits(m, range, formatting, t),
  ],
  [
    'textDocument/onTypeFormatting',
    (s) => registerOnTypeFormattingProvider(s.switchedOn, reg('onTypeFormatting', { firstTriggerCharacter: ';' })),
    'onTypeFormatting',
    (p, m, t) => p.provideOnTypeFormattingEdits(m, position, ';', formatting, t),
  ],
  [
    'textDocument/documentHighlight',
    (s) => registerDocumentHighlightProvider(s.host, reg('documentHighlight')),
    'documentHighlight',
    (p, m, t) => p.provideDocumentHighlights(m, position, t),
  ],
  [
    'textDocument/foldingRange',
    (s) => registerFoldingRangeProvider(s.host, reg('foldingRange')),
    'foldingRange',
    (p, m, t) => p.provideFoldingRanges(m, {}, t),
  ],
  ['textDocument/inlayHint', (s) => registerInlayHintsProvider(s.switchedOn, reg('inlayHint')), 'inlayHint', (p, m, t) => p.provideInlayHints(m, range, t)],
];

describe('superseded editing requests are cancelled', () => {
  it.each(cases)('%s is cancelled when Monaco cancels the token it asked with', async (method, register, kind, call) => {
    // The server never answers: the request is still in flight when Monaco supersedes it.
    const s = setup(() => new Promise(() => undefined));
    register(s);
    const entry = s.fake.active().find((x) => x.kind === kind);
    expect(entry, `${kind} provider registered`).toBeDefined();
    const source = new CancelSource();
    void call(entry!.provider, s.model, source.token);
    await new Promise((r) => setTimeout(r, 0));
    const sent = s.ctx.requests.find((q) => q.method === method);
    expect(sent, `${method} sent`).toBeDefined();
    expect(sent!.token?.isCancellationRequested).toBe(false);
    source.cancel();
    expect(sent!.token?.isCancellationRequested).toBe(true);
  });

  it('inlayHint/resolve carries the token of the hover that asked for it', async () => {
    const s = setup();
    const hint = { position: { line: 0, character: 9 }, label: ': number', data: 1 };
    const ctx = fakeFeatureContext({ capabilities: new ServerCapabilityIndex({}), answer: (method) => (method === 'textDocument/inlayHint' ? [hint] : hint) });
    const host = { ...fakeProviderHost(s.fake, ctx.context), preferences: () => ({ ...DEFAULT_PREFERENCES, inlayHints: true }) };
    registerInlayHintsProvider(host, reg('inlayHint', { resolveProvider: true }));
    const provider = s.fake.active().find((x) => x.kind === 'inlayHint')!.provider;
    const list = await provider.provideInlayHints(s.model, range, new CancelSource().token);
    const source = new CancelSource();
    await provider.resolveInlayHint(list.hints[0], source.token);
    expect(ctx.requests.find((q) => q.method === 'inlayHint/resolve')!.token).toBe(source.token);
  });

  it('workspace/symbol carries the token the picker cancels when a newer query supersedes it', async () => {
    const s = setup();
    registerWorkspaceSymbols(s.host, reg('workspaceSymbol'));
    const [search] = s.host.editing.workspaceSymbols.ofSession('s1');
    const source = new CancelSource();
    await search!('fo', source.token);
    expect(s.ctx.requests.find((q) => q.method === 'workspace/symbol')!.token).toBe(source.token);
  });
});
