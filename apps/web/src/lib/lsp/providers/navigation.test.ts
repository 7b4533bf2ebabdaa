import { describe, expect, it } from 'vitest';
import { Emitter, ManualClock } from '@kandev/kit';
import { BuiltinSuppression } from '../builtins.js';
import { ServerCapabilityIndex } from '../capabilities.js';
import { clientCapabilities } from '../clientCapabilities.js';
import { EditingRegistry } from '../editing/registry.js';
import type { FeatureContext } from '../features.js';
import { createFakeMonaco, NO_CANCEL } from '../testing/fakeMonaco.js';
import { createMonacoFeatureBinder } from './bind.js';

const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

function context(
  capabilities: ServerCapabilityIndex,
  answer: (method: string, params: unknown) => unknown,
  asked: Array<{ method: string; params: unknown }>,
): FeatureContext {
  return {
    sessionId: 's1',
    language: 'typescript',
    generation: 1,
    capabilities,
    workspace: { workspaceUri: 'file:///workspace', workspacePath: '/workspace', repoSubpaths: [] },
    request: async (method: string, params: unknown) => {
      asked.push({ method, params });
      return answer(method, params) as never;
    },
    failureOf: () => undefined,
    flush: () => undefined,
    isOpen: () => true,
    openPaths: () => [],
    clock: new ManualClock(),
    onSemanticTokensRefresh: new Emitter<void>().event,
    onDiagnosticRefresh: new Emitter<void>().event,
    onInlayHintRefresh: new Emitter<void>().event,
    onCodeLensRefresh: new Emitter<void>().event,
    notify: () => undefined,
    onDocumentSync: new Emitter<{ path: string; kind: 'open' | 'change' | 'close' }>().event,
  };
}

function bindWith(capabilities: ServerCapabilityIndex, answer: (method: string, params: unknown) => unknown = () => null) {
  const fake = createFakeMonaco();
  const editing = new EditingRegistry();
  const asked: Array<{ method: string; params: unknown }> = [];
  const binding = createMonacoFeatureBinder({ monaco: fake.monaco, suppression: new BuiltinSuppression(), acquireModel: async () => undefined, editing })(
    context(capabilities, answer, asked),
  );
  return { fake, editing, asked, binding };
}

describe('navigation providers', () => {
  it('the client advertises implementation, type definition, declaration (with links) and both hierarchies, each dynamically registrable', () => {
    const text = clientCapabilities().textDocument!;
    for (const feature of ['implementation', 'typeDefinition', 'declaration'] as const)
      expect(text[feature]).toEqual({ dynamicRegistration: true, linkSupport: true });
    expect(text.callHierarchy).toEqual({ dynamicRegistration: true });
    expect(text.typeHierarchy).toEqual({ dynamicRegistration: true });
  });

  it('implementation, type definition and declaration providers exist exactly while the server offers them (static or registered)', () => {
    const kinds = (fake: ReturnType<typeof createFakeMonaco>) =>
      fake
        .active()
        .map((r) => r.kind)
        .sort();
    expect(kinds(bindWith(new ServerCapabilityIndex({ definitionProvider: true })).fake)).toEqual(['definition']);
    expect(kinds(bindWith(new ServerCapabilityIndex({ implementationProvider: true, typeDefinitionProvider: {}, declarationProvider: true })).fake)).toEqual([
      'declaration',
      'implementation',
      'typeDefinition',
    ]);
    const index = new ServerCapabilityIndex({});
    const { fake } = bindWith(index);
    expect(kinds(fake)).toEqual([]);
    index.register([{ id: 'impl', method: 'textDocument/implementation', registerOptions: { documentSelector: [{ language: 'typescript' }] } }]);
    expect(kinds(fake)).toEqual(['implementation']);
    index.unregister([{ id: 'impl', method: 'textDocument/implementation' }]);
    expect(kinds(fake)).toEqual([]);
  });

  it('each asks its own method at the caret and maps Location[] and LocationLink[] answers to links on the session models', async () => {
    const { fake, asked } = bindWith(
      new ServerCapabilityIndex({ implementationProvider: true, typeDefinitionProvider: true, declarationProvider: true }),
      (method) =>
        method === 'textDocument/implementation'
          ? [
              { uri: 'file:///workspace/a.ts', range: range(1, 2, 3) },
              { uri: 'file:///workspace/b.ts', range: range(4, 0, 5) },
            ]
          : [{ targetUri: 'file:///workspace/t.ts', targetRange: range(0, 0, 9), targetSelectionRange: range(0, 5, 9) }],
    );
    const model = fake.addModel('kandev-session', 's1', '/main.ts');
    const provider = (kind: string) => fake.active().find((r) => r.kind === kind)!.provider;
    const implementations = await provider('implementation').provideImplementation(model, { lineNumber: 3, column: 7 }, NO_CANCEL);
    expect(
      (implementations as Array<{ uri: { toString(): string }; range: { startLineNumber: number; startColumn: number } }>).map((l) => [
        l.uri.toString(),
        l.range.startLineNumber,
        l.range.startColumn,
      ]),
    ).toEqual([
      ['kandev-session://s1/a.ts', 2, 3],
      ['kandev-session://s1/b.ts', 5, 1],
    ]);
    const typeDefinition = await provider('typeDefinition').provideTypeDefinition(model, { lineNumber: 1, column: 1 }, NO_CANCEL);
    expect(typeDefinition[0].targetSelectionRange).toEqual({ startLineNumber: 1, startColumn: 6, endLineNumber: 1, endColumn: 10 });
    await provider('declaration').provideDeclaration(model, { lineNumber: 1, column: 1 }, NO_CANCEL);
    expect(asked.map((a) => a.method)).toEqual(['textDocument/implementation', 'textDocument/typeDefinition', 'textDocument/declaration']);
    expect(asked[0]!.params).toEqual({ textDocument: { uri: 'file:///workspace/main.ts' }, position: { line: 2, character: 6 } });
  });

  it('hierarchy sources follow callHierarchyProvider and typeHierarchyProvider, and go with the generation', () => {
    const { editing, binding } = bindWith(new ServerCapabilityIndex({ callHierarchyProvider: true, typeHierarchyProvider: {} }));
    expect(
      editing.hierarchies
        .forPath('s1', 'a.ts')
        .map((s) => s.kind)
        .sort(),
    ).toEqual(['calls', 'types']);
    binding.dispose();
    expect(editing.hierarchies.forPath('s1', 'a.ts')).toEqual([]);
    expect(bindWith(new ServerCapabilityIndex({ definitionProvider: true })).editing.hierarchies.forPath('s1', 'a.ts')).toEqual([]);
  });
});
