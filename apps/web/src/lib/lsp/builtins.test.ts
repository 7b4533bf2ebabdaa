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
