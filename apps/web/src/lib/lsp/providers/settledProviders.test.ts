/* eslint-disable @typescript-eslint/no-explicit-any -- providers are driven through the fake Monaco */
import { Emitter, ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { BuiltinSuppression } from '../builtins.js';
import { CancelSource } from '../cancellation.js';
import { ServerCapabilityIndex } from '../capabilities.js';
import { SettledRequests } from '../settle.js';
import { fakeFeatureContext } from '../testing/featureContext.js';
import { createFakeMonaco } from '../testing/fakeMonaco.js';
import { fakeProviderHost } from '../testing/providerHost.js';
import { createMonacoFeatureBinder } from './bind.js';
import { registerCodeActionProvider } from './codeActions.js';
import { registerDocumentHighlightProvider } from './highlights.js';
import { RANGE_ONLY_LINES, registerSemanticTokensProvider, toMonacoSemanticTokensEdits } from './semanticTokens.js';

const reg = (feature: string, options: Record<string, unknown> = {}) => ({ id: 'static', feature, options, documentSelector: null }) as any;
const caret = { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 };
const legend = { tokenTypes: ['class'], tokenModifiers: [] };
const tick = () => new Promise((r) => setTimeout(r, 0));

function setup(answer: (method: string, params: any) => unknown = () => []) {
  const clock = new ManualClock();
  const fake = createFakeMonaco();
  const ctx = fakeFeatureContext({ capabilities: new ServerCapabilityIndex({}), answer, clock });
  const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'import os from "os";\n');
  const host = fakeProviderHost(fake, ctx.context, { settled: new SettledRequests(clock), settleMs: { caret: 150, text: 300 } });
  const provider = (kind: string) => fake.active().find((x) => x.kind === kind)!.provider;
  return { clock, fake, ctx, model, host, provider, sent: (method: string) => ctx.requests.filter((r) => r.method === method) };
}

describe('requests the editor makes on its own wait for the caret or the text to settle', () => {
  it('code actions: the light bulb asks once the caret rests, once; asking again for the same place and text sends nothing', async () => {
    const s = setup();
    registerCodeActionProvider(s.host, reg('codeAction'));
    const ask = () => s.provider('codeAction').provideCodeActions(s.model, caret, { markers: [], trigger: 2 }, new CancelSource().token);
    const first = ask();
    s.clock.advance(149);
    expect(s.sent('textDocument/codeAction')).toHaveLength(0);
    s.clock.advance(1);
    expect(s.sent('textDocument/codeAction')).toHaveLength(1);
    await first;
    // Monaco asks again and again while the caret rests (markers set again, providers changed): nothing goes out.
    await Promise.all([ask(), ask(), ask()]);
    s.clock.advance(1_000);
    expect(s.sent('textDocument/codeAction')).toHaveLength(1);
    // The text changed: the next ask is a new question.
    s.model.versionId++;
    void ask();
    s.clock.advance(150);
    expect(s.sent('textDocument/codeAction')).toHaveLength(2);
  });

  it('code actions asked for (Ctrl/Cmd+.) go at once and are never answered from an earlier answer', async () => {
    const s = setup();
    registerCodeActionProvider(s.host, reg('codeAction'));
    await s.provider('codeAction').provideCodeActions(s.model, caret, { markers: [], trigger: 1 }, new CancelSource().token);
    await s.provider('codeAction').provideCodeActions(s.model, caret, { markers: [], trigger: 1 }, new CancelSource().token);
    expect(s.sent('textDocument/codeAction')).toHaveLength(2);
  });

  it('highlights: a caret moving through a word asks for where it stopped, and the superseded asks return nothing', async () => {
    const s = setup(() => [{ range: { start: { line: 0, character: 7 }, end: { line: 0, character: 9 } } }]);
    registerDocumentHighlightProvider(s.host, reg('documentHighlight'));
    const at = (column: number) => s.provider('documentHighlight').provideDocumentHighlights(s.model, { lineNumber: 1, column }, new CancelSource().token);
    const moves = [at(1), at(2), at(3)];
    s.clock.advance(150);
    expect(s.sent('textDocument/documentHighlight').map((r) => r.params.position)).toEqual([{ line: 0, character: 2 }]);
    const [a, b, c] = await Promise.all(moves);
    expect([a, b]).toEqual([null, null]);
    expect(c).toHaveLength(1);
  });

  it('semantic tokens: once typing pauses, with full/delta against the last result when offered', async () => {
    const s = setup((method) =>
      method.endsWith('/delta') ? { resultId: '2', edits: [{ start: 0, deleteCount: 5, data: [0, 0, 3, 0, 0] }] } : { resultId: '1', data: [] },
    );
    registerSemanticTokensProvider(s.host, reg('semanticTokens', { legend, full: { delta: true } }));
    const full = s.provider('semanticTokens').provideDocumentSemanticTokens(s.model, null, new CancelSource().token);
    s.clock.advance(300);
    expect(await full).toEqual({ data: new Uint32Array(), resultId: '1' });
    s.model.versionId++;
    const delta = s.provider('semanticTokens').provideDocumentSemanticTokens(s.model, '1', new CancelSource().token);
    s.clock.advance(300);
    expect(await delta).toEqual({ resultId: '2', edits: [{ start: 0, deleteCount: 5, data: Uint32Array.from([0, 0, 3, 0, 0]) }] });
    expect(s.sent('textDocument/semanticTokens/full/delta').map((r) => r.params.previousResultId)).toEqual(['1']);
  });

  it(`semantic tokens: a document above ${RANGE_ONLY_LINES} lines is asked by visible range only, when the server offers ranges`, async () => {
    const s = setup(() => ({ data: [] }));
    const big = s.fake.addModel('kandev-session', 's1', '/big.ts', 'x\n'.repeat(RANGE_ONLY_LINES + 1));
    (big as any).getLineCount = () => RANGE_ONLY_LINES + 2;
    registerSemanticTokensProvider(s.host, reg('semanticTokens', { legend, full: true, range: true }));
    // Not null: Monaco would take the document's tokens as complete and never ask for a range again.
    await expect(s.provider('semanticTokens').provideDocumentSemanticTokens(big, null, new CancelSource().token)).rejects.toMatchObject({
      name: 'Canceled',
      message: 'Canceled',
    });
    const ranged = s
      .provider('semanticTokensRange')
      .provideDocumentRangeSemanticTokens(big, { startLineNumber: 100, startColumn: 1, endLineNumber: 140, endColumn: 1 }, new CancelSource().token);
    s.clock.advance(300);
    await ranged;
    expect(s.sent('textDocument/semanticTokens/full')).toHaveLength(0);
    expect(s.sent('textDocument/semanticTokens/range').map((r) => r.params.range)).toEqual([
      { start: { line: 99, character: 0 }, end: { line: 139, character: 0 } },
    ]);
  });

  it('a delta answer maps to Monaco edits; a full answer to a delta request maps to full tokens', () => {
    expect(toMonacoSemanticTokensEdits({ edits: [{ start: 5, deleteCount: 0 }] })).toEqual({ edits: [{ start: 5, deleteCount: 0 }] });
    expect(toMonacoSemanticTokensEdits({ data: [1, 2, 3, 4, 5], resultId: '9' })).toEqual({ data: Uint32Array.from([1, 2, 3, 4, 5]), resultId: '9' });
    expect(toMonacoSemanticTokensEdits(null)).toBeNull();
  });
});

describe('dynamic registrations re-register only what changed', () => {
  it('a registration of one feature leaves the providers of the others in place (Monaco would ask them all again)', async () => {
    const fake = createFakeMonaco();
    const capabilities = new ServerCapabilityIndex({ codeActionProvider: true, documentSymbolProvider: true });
    const ctx = fakeFeatureContext({ capabilities, clock: new ManualClock() });
    const bind = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined });
    bind({ ...ctx.context, onDocumentSync: new Emitter<any>().event });
    const before = fake.active().map((r) => r.provider);
    capabilities.register([{ id: 'd1', method: 'textDocument/diagnostic', registerOptions: { documentSelector: null } }]);
    capabilities.register([{ id: 'h1', method: 'textDocument/hover', registerOptions: { documentSelector: null } }]);
    await tick();
    const after = fake.active();
    expect(after.map((r) => r.kind).sort()).toEqual(['codeAction', 'documentSymbol', 'hover']);
    for (const provider of before) expect(after.map((r) => r.provider)).toContain(provider);
  });
});
