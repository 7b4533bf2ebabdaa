/* eslint-disable @typescript-eslint/no-explicit-any -- test fakes and assertions, as test/** allows */
import { describe, expect, it } from 'vitest';
import { BuiltinSuppression, installBuiltinGuards, markKandevProvider, selectorTargetsBuiltins, wrapBuiltinProvider } from './builtins.js';
import { createFakeMonaco } from './testing/fakeMonaco.js';

function builtinHover(calls: string[]) {
  return { provideHover: (model: { uri: { path: string } }) => (calls.push(model.uri.path), { contents: [{ value: 'builtin' }] }) };
}

describe('Monaco TypeScript built-in guards', () => {
  it('S14 built-ins that register lazily after the LSP claim are wrapped; Kandev providers stay unwrapped and active', () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    suppression.claim('s1', 'typescript', ['hover']); // LSP initialized first ...
    const calls: string[] = [];
    fake.languages.registerHoverProvider('typescript', builtinHover(calls)); // ... then Monaco's lazy tsMode registers
    const ours = markKandevProvider({ provideHover: () => ({ contents: [{ value: 'lsp' }] }) });
    fake.languages.registerHoverProvider([{ language: 'typescript', scheme: 'kandev-session' }], ours);
    const owned = fake.addModel('kandev-session', 's1', '/src/a.ts');
    const [builtin, lsp] = fake.registered;
    expect(builtin!.provider.provideHover(owned)).toBeNull();
    expect(calls).toEqual([]);
    expect(lsp!.provider).toBe(ours);
    expect(lsp!.provider.provideHover(owned)).toEqual({ contents: [{ value: 'lsp' }] });
  });

  it("a built-in registers marked built-in (Monaco then orders it after every provider of ours, whenever it came); Kandev's and other languages' selectors are left as given", () => {
    const fake = createFakeMonaco();
    installBuiltinGuards(fake.languages as never, fake.editor as never, new BuiltinSuppression());
    const ours = [{ language: 'typescript', scheme: 'kandev-session' }];
    fake.languages.registerDocumentRangeFormattingEditProvider(ours, markKandevProvider({ provideDocumentRangeFormattingEdits: () => [] }));
    fake.languages.registerDocumentRangeFormattingEditProvider('typescript', { provideDocumentRangeFormattingEdits: () => [] });
    fake.languages.registerHoverProvider(['javascript', { language: 'typescriptreact', scheme: 'file' }], builtinHover([]));
    fake.languages.registerHoverProvider('python', builtinHover([]));
    expect(fake.registered.map((r) => r.selector)).toEqual([
      ours,
      { language: 'typescript', isBuiltin: true },
      [
        { language: 'javascript', isBuiltin: true },
        { language: 'typescriptreact', scheme: 'file', isBuiltin: true },
      ],
      'python',
    ]);
  });

  it('the original side of a diff (kandev-diff) stays plain: no built-in answers for it and its built-in markers are held back', () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    const calls: string[] = [];
    fake.languages.registerHoverProvider('typescript', builtinHover(calls));
    const head = fake.addModel('kandev-diff', '1', '/src/a.ts');
    const plain = fake.addModel('inmemory', 'model', '/1');
    expect(fake.registered[0]!.provider.provideHover(head)).toBeNull();
    expect(fake.registered[0]!.provider.provideHover(plain)).toEqual({ contents: [{ value: 'builtin' }] });
    expect(calls).toEqual(['/1']);
    fake.editor.setModelMarkers(head as never, 'typescript', [{ message: 'Cannot find module' }]);
    expect(fake.editor.getModelMarkers({ resource: head.uri })).toEqual([]);
  });

  it('S15 suppression applies only to the advertised feature on models the connection owns', () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    const calls: string[] = [];
    fake.languages.registerHoverProvider('typescript', builtinHover(calls));
    fake.languages.registerCompletionItemProvider('javascript', { provideCompletionItems: () => ({ suggestions: [{ label: 'builtin' }] }) });
    const claim = suppression.claim('s1', 'typescript', ['hover']);
    const hover = fake.registered[0]!.provider;
    const completion = fake.registered[1]!.provider;
    const ownedTs = fake.addModel('kandev-session', 's1', '/a.ts');
    const ownedJs = fake.addModel('kandev-session', 's1', '/b.js');
    const otherSession = fake.addModel('kandev-session', 's2', '/a.ts');
    const plain = fake.addModel('inmemory', 'model', '/1');
    expect(hover.provideHover(ownedTs)).toBeNull();
    expect(hover.provideHover(otherSession)).toEqual({ contents: [{ value: 'builtin' }] });
    expect(hover.provideHover(plain)).toEqual({ contents: [{ value: 'builtin' }] });
    expect(completion.provideCompletionItems(ownedJs).suggestions).toEqual([{ label: 'builtin' }]); // unadvertised feature
    claim.dispose();
    expect(hover.provideHover(ownedTs)).toEqual({ contents: [{ value: 'builtin' }] });
    expect(calls).toEqual(['/a.ts', '/1', '/a.ts']);
  });

  it('S15 built-in diagnostics are held back on owned models only and given back when the claim ends', () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    const owned = fake.addModel('kandev-session', 's1', '/a.ts');
    const other = fake.addModel('kandev-session', 's2', '/a.ts');
    fake.editor.setModelMarkers(owned, 'typescript', [{ message: 'before claim' }]);
    const claim = suppression.claim('s1', 'typescript', ['diagnostics']);
    expect(fake.editor.getModelMarkers({ owner: 'typescript', resource: owned.uri })).toEqual([]);
    fake.editor.setModelMarkers(owned, 'typescript', [{ message: 'builtin' }]);
    fake.editor.setModelMarkers(other, 'typescript', [{ message: 'other session' }]);
    fake.editor.setModelMarkers(owned, 'kandev-lsp.typescript.1', [{ message: 'lsp' }]);
    expect(fake.editor.getModelMarkers({ resource: owned.uri }).map((m) => m.message)).toEqual(['lsp']);
    expect(fake.editor.getModelMarkers({ resource: other.uri }).map((m) => m.message)).toEqual(['other session']);
    claim.dispose();
    expect(fake.editor.getModelMarkers({ owner: 'typescript', resource: owned.uri }).map((m) => m.message)).toEqual(['builtin']);
  });

  it('S16 every suppressible provider kind answers its own "nothing" only for the claimed feature and owned model', async () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    const kinds = [
      ['registerCompletionItemProvider', 'provideCompletionItems', 'completion', { suggestions: [] }],
      ['registerHoverProvider', 'provideHover', 'hover', null],
      ['registerDefinitionProvider', 'provideDefinition', 'definition', null],
      ['registerReferenceProvider', 'provideReferences', 'references', null],
      ['registerSignatureHelpProvider', 'provideSignatureHelp', 'signatureHelp', null],
    ] as const;
    for (const [register, method] of kinds) (fake.languages as any)[register]('typescript', { [method]: () => `builtin ${method}` });
    const owned = fake.addModel('kandev-session', 's1', '/a.ts');
    const other = fake.addModel('kandev-session', 's2', '/a.ts');
    for (const [, method, feature, empty] of kinds) {
      const provider = fake.registered.find((r) => typeof r.provider[method] === 'function')!.provider;
      const claim = suppression.claim('s1', 'typescript', [feature]);
      expect(await provider[method](owned), feature).toEqual(empty);
      expect(await provider[method](other), feature).toBe(`builtin ${method}`);
      claim.dispose();
      expect(await provider[method](owned), feature).toBe(`builtin ${method}`);
      // A claim for any other feature leaves this one built-in.
      const elsewhere = suppression.claim(
        's1',
        'typescript',
        kinds.map((k) => k[2]).filter((f) => f !== feature),
      );
      expect(await provider[method](owned), feature).toBe(`builtin ${method}`);
      elsewhere.dispose();
    }
  });

  it("S15 other languages' providers are never wrapped, and a Kotlin claim does not touch TypeScript models", () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    const kotlin = { provideHover: () => 'kotlin builtin' };
    fake.languages.registerHoverProvider('kotlin', kotlin);
    fake.languages.registerHoverProvider('typescript', builtinHover([]));
    expect(fake.registered[0]!.provider).toBe(kotlin);
    suppression.claim('s1', 'kotlin', ['hover']);
    expect(fake.registered[1]!.provider.provideHover(fake.addModel('kandev-session', 's1', '/a.ts'))).toEqual({ contents: [{ value: 'builtin' }] });
  });

  it('recognizes built-in selectors and leaves other languages alone', () => {
    expect(selectorTargetsBuiltins('typescript')).toBe(true);
    expect(selectorTargetsBuiltins([{ language: 'javascript' }])).toBe(true);
    expect(selectorTargetsBuiltins('python')).toBe(false);
    const p = { provideHover: () => 1 };
    expect(wrapBuiltinProvider('hover', p, new BuiltinSuppression()).provideHover()).toBe(1);
    const model = { uri: { scheme: 'kandev-session', authority: 's1', path: '/a.ts' } };
    expect((wrapBuiltinProvider('hover', p, new BuiltinSuppression()).provideHover as (m: unknown) => number)(model)).toBe(1);
  });
});

describe('built-in guards for the editing features', () => {
  it('the TypeScript built-in rename (both methods), symbols, code actions and inlay hints give way only where the server owns the feature', () => {
    const fake = createFakeMonaco();
    const suppression = new BuiltinSuppression();
    installBuiltinGuards(fake.languages as never, fake.editor as never, suppression);
    const calls: string[] = [];
    fake.languages.registerRenameProvider('typescript', {
      provideRenameEdits: () => (calls.push('edits'), { edits: [{ builtin: true }] }),
      resolveRenameLocation: () => (calls.push('location'), { range: {}, text: 'x' }),
    } as never);
    fake.languages.registerDocumentSymbolProvider('typescript', { provideDocumentSymbols: () => (calls.push('symbols'), []) } as never);
    fake.languages.registerInlayHintsProvider('typescript', { provideInlayHints: () => (calls.push('hints'), { hints: [1] }) } as never);
    suppression.claim('s1', 'typescript', ['rename', 'documentSymbol']);
    const owned = fake.addModel('kandev-session', 's1', '/a.ts');
    const other = fake.addModel('kandev-session', 's2', '/a.ts');
    const [rename, symbols, hints] = fake.registered.map((r) => r.provider);
    expect(rename.provideRenameEdits(owned)).toBeNull();
    expect(rename.resolveRenameLocation(owned)).toBeUndefined();
    expect(symbols.provideDocumentSymbols(owned)).toBeNull();
    expect(hints.provideInlayHints(owned)).toEqual({ hints: [1] });
    expect(rename.provideRenameEdits(other)).toEqual({ edits: [{ builtin: true }] });
    expect(calls).toEqual(['hints', 'edits']);
  });
});
