/* eslint-disable @typescript-eslint/no-explicit-any -- test fakes and assertions, as test/** allows */
import { CompletionItemKind as LspKind } from 'vscode-languageserver-types';
import { describe, expect, it } from 'vitest';
import { ServerCapabilityIndex } from '../capabilities.js';
import { Emitter, ManualClock } from '@kandev/kit';
import type { FeatureContext } from '../features.js';
import { fakeProviderHost } from '../testing/providerHost.js';
import { createFakeMonaco, NO_CANCEL } from '../testing/fakeMonaco.js';
import {
  applyResolvedItem,
  LSP_COMPLETION_KIND_NAMES,
  registerCompletionProvider,
  toLspCompletionContext,
  toMonacoCompletionKind,
  toMonacoCompletionList,
} from './completion.js';
import type { ProviderHost } from './host.js';
import { MonacoCompletionItemKind } from './monacoEnums.js';

const word = { startLineNumber: 3, startColumn: 5, endLineNumber: 3, endColumn: 8 };

function host(
  requests: Array<{ method: string; params: any }>,
  reply: unknown,
  capabilities = new ServerCapabilityIndex({ completionProvider: { triggerCharacters: ['.', '"'], resolveProvider: true } }),
) {
  const fake = createFakeMonaco();
  const context: FeatureContext = {
    sessionId: 's1',
    language: 'typescript',
    generation: 1,
    capabilities,
    workspace: { workspaceUri: 'file:///ws', workspacePath: '/ws', repoSubpaths: [] },
    request: async (method, params) => {
      requests.push({ method, params });
      return (typeof reply === 'function' ? (reply as (m: string) => unknown)(method) : reply) as never;
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
  const h: ProviderHost = fakeProviderHost(fake, context);
  return { fake, h, capabilities };
}

describe('completion', () => {
  it('S18 Monaco invoke / trigger character / incomplete -> LSP trigger kinds 1 / 2 with the character / 3', () => {
    expect(toLspCompletionContext({ triggerKind: 0 })).toEqual({ triggerKind: 1 });
    expect(toLspCompletionContext({ triggerKind: 1, triggerCharacter: '.' })).toEqual({ triggerKind: 2, triggerCharacter: '.' });
    expect(toLspCompletionContext({ triggerKind: 2 })).toEqual({ triggerKind: 3 });
  });

  it('S18 the registered provider sends textDocument/completion with those trigger kinds for the clean server URI', async () => {
    const requests: Array<{ method: string; params: any }> = [];
    const { fake, h, capabilities } = host(requests, { isIncomplete: false, items: [] });
    registerCompletionProvider(h, capabilities.registrations('completion')[0]!);
    const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'let x\nfoo.ba');
    const provider = fake.active()[0]!.provider;
    await provider.provideCompletionItems(model, { lineNumber: 2, column: 7 }, { triggerKind: 0 }, NO_CANCEL);
    await provider.provideCompletionItems(model, { lineNumber: 2, column: 7 }, { triggerKind: 1, triggerCharacter: '.' }, NO_CANCEL);
    await provider.provideCompletionItems(model, { lineNumber: 2, column: 7 }, { triggerKind: 2 }, NO_CANCEL);
    expect(requests.map((r) => r.params.context)).toEqual([{ triggerKind: 1 }, { triggerKind: 2, triggerCharacter: '.' }, { triggerKind: 3 }]);
    expect(requests[0]!.params.textDocument.uri).toBe('file:///ws/src/a.ts');
    expect(requests[0]!.params.position).toEqual({ line: 1, character: 6 });
  });

  it('records how long the server took over word lists, and whether they were cancelled by then; never over trigger-character lists', async () => {
    const clock = new ManualClock();
    const recorded: Array<[number, boolean]> = [];
    const fake = createFakeMonaco();
    const capabilities = new ServerCapabilityIndex({ completionProvider: { triggerCharacters: ['.'] } });
    const { h } = host([], undefined, capabilities);
    const cancelled = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
    const context: FeatureContext = {
      ...h.context,
      clock,
      request: async () => {
        // The server answers 400 ms later; a request cancelled meanwhile got tls's quick empty answer.
        clock.advance(400);
        return { isIncomplete: false, items: [] } as never;
      },
    };
    const recordingHost = fakeProviderHost(fake, context, { recordWordList: (_model, ms, cancelled) => void recorded.push([ms, cancelled]) });
    registerCompletionProvider(recordingHost, capabilities.registrations('completion')[0]!);
    const model = fake.addModel('kandev-session', 's1', '/src/a.ts', 'foo.ba');
    const provider = fake.active()[0]!.provider;
    await provider.provideCompletionItems(model, { lineNumber: 1, column: 7 }, { triggerKind: 0 }, NO_CANCEL);
    await provider.provideCompletionItems(model, { lineNumber: 1, column: 5 }, { triggerKind: 1, triggerCharacter: '.' }, NO_CANCEL);
    await provider.provideCompletionItems(model, { lineNumber: 1, column: 7 }, { triggerKind: 2 }, NO_CANCEL);
    cancelled.isCancellationRequested = true;
    await provider.provideCompletionItems(model, { lineNumber: 1, column: 7 }, { triggerKind: 0 }, cancelled);
    expect(recorded).toEqual([
      [400, false],
      [400, false],
      [400, true],
    ]);
  });

  it('S19 isIncomplete:true is preserved as Monaco incomplete', () => {
    expect(toMonacoCompletionList({ isIncomplete: true, items: [{ label: 'a' }] }, word).list.incomplete).toBe(true);
    expect(toMonacoCompletionList({ isIncomplete: false, items: [] }, word).list.incomplete).toBeUndefined();
    expect(toMonacoCompletionList([{ label: 'a' }], word).list.incomplete).toBeUndefined();
  });

  it('S20 automatic completion uses exactly the advertised trigger characters', () => {
    const requests: Array<{ method: string; params: any }> = [];
    const { fake, h, capabilities } = host(requests, null);
    registerCompletionProvider(h, capabilities.registrations('completion')[0]!);
    expect(fake.active()[0]!.provider.triggerCharacters).toEqual(['.', '"']);
    expect(fake.active()[0]!.selector).toEqual([
      { language: 'typescript', scheme: 'kandev-session' },
      { language: 'javascript', scheme: 'kandev-session' },
    ]);
  });

  it('S20 every standard LSP CompletionItemKind maps to the Monaco category of the same name', () => {
    expect(LSP_COMPLETION_KIND_NAMES).toHaveLength(25);
    for (const [name, value] of Object.entries(LspKind)) {
      if (typeof value !== 'number') continue;
      expect(toMonacoCompletionKind(value)).toBe(MonacoCompletionItemKind[name as keyof typeof MonacoCompletionItemKind]);
    }
    expect(toMonacoCompletionKind(undefined)).toBe(MonacoCompletionItemKind.Text);
    expect(toMonacoCompletionKind(99)).toBe(MonacoCompletionItemKind.Text);
  });

  it('S22 without textEdit the current word is the range; TextEdit and InsertReplaceEdit override it with single and dual ranges', () => {
    const { list } = toMonacoCompletionList(
      [
        { label: 'plain' },
        { label: 'edit', textEdit: { range: { start: { line: 2, character: 1 }, end: { line: 2, character: 4 } }, newText: 'edited' } },
        {
          label: 'ir',
          textEdit: {
            newText: 'ir()',
            insert: { start: { line: 2, character: 4 }, end: { line: 2, character: 6 } },
            replace: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } },
          },
        },
      ],
      word,
    );
    expect(list.suggestions[0]).toMatchObject({ insertText: 'plain', range: word });
    expect(list.suggestions[1]).toMatchObject({ insertText: 'edited', range: { startLineNumber: 3, startColumn: 2, endLineNumber: 3, endColumn: 5 } });
    expect(list.suggestions[2]!.range).toEqual({
      insert: { startLineNumber: 3, startColumn: 5, endLineNumber: 3, endColumn: 7 },
      replace: { startLineNumber: 3, startColumn: 5, endLineNumber: 3, endColumn: 10 },
    });
  });

  it('the word range is computed from the model at the requested position', async () => {
    const requests: Array<{ method: string; params: any }> = [];
    const { fake, h, capabilities } = host(requests, [{ label: 'bar' }]);
    registerCompletionProvider(h, capabilities.registrations('completion')[0]!);
    const model = fake.addModel('kandev-session', 's1', '/a.ts', 'foo.ba');
    const result = await fake.active()[0]!.provider.provideCompletionItems(model, { lineNumber: 1, column: 7 }, { triggerKind: 0 }, NO_CANCEL);
    expect(result.suggestions[0].range).toEqual({ startLineNumber: 1, startColumn: 5, endLineNumber: 1, endColumn: 7 });
  });

  it('snippets, label details, deprecation, documentation, list defaults', () => {
    const { list, origins } = toMonacoCompletionList(
      {
        isIncomplete: false,
        itemDefaults: { editRange: { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } }, insertTextFormat: 2, data: { d: 1 } },
        items: [
          {
            label: 'fn',
            insertText: 'fn(${1:x})',
            labelDetails: { detail: '(x)', description: 'mod' },
            tags: [1],
            documentation: { kind: 'markdown', value: '**doc**' },
          },
          { label: 'old', deprecated: true, insertTextFormat: 1, documentation: 'plain doc', data: 'own' },
        ],
      },
      word,
    );
    expect(list.suggestions[0]).toMatchObject({
      label: { label: 'fn', detail: '(x)', description: 'mod' },
      insertText: 'fn(${1:x})',
      insertTextRules: 4,
      tags: [1],
      documentation: { value: '**doc**' },
      range: { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 3 },
    });
    expect(list.suggestions[1]!.insertTextRules).toBeUndefined();
    expect(list.suggestions[1]!.documentation).toBe('plain doc');
    expect(origins.map((o) => o.data)).toEqual([{ d: 1 }, 'own']);
  });

  it('resolves through completionItem/resolve with the original item only when resolveProvider is advertised', async () => {
    const requests: Array<{ method: string; params: any }> = [];
    const reply = (method: string) =>
      method === 'completionItem/resolve' ? { label: 'a', detail: 'resolved', documentation: 'doc' } : [{ label: 'a', data: 7 }];
    const { fake, h, capabilities } = host(requests, reply);
    registerCompletionProvider(h, capabilities.registrations('completion')[0]!);
    const model = fake.addModel('kandev-session', 's1', '/a.ts', 'a');
    const provider = fake.active()[0]!.provider;
    const result = await provider.provideCompletionItems(model, { lineNumber: 1, column: 2 }, { triggerKind: 0 }, NO_CANCEL);
    const resolved = await provider.resolveCompletionItem(result.suggestions[0], NO_CANCEL);
    expect(requests[1]).toEqual({ method: 'completionItem/resolve', params: { label: 'a', data: 7 } });
    expect(resolved).toMatchObject({ detail: 'resolved', documentation: 'doc' });

    const noResolve = host([], null, new ServerCapabilityIndex({ completionProvider: {} }));
    registerCompletionProvider(noResolve.h, noResolve.capabilities.registrations('completion')[0]!);
    expect(noResolve.fake.active()[0]!.provider.resolveCompletionItem).toBeUndefined();
    expect(applyResolvedItem({ label: 'x', kind: 0, insertText: 'x', range: word }, { label: 'x' })).toEqual({
      label: 'x',
      kind: 0,
      insertText: 'x',
      range: word,
    });
  });

  it('answers nothing for a model of another session (no request)', async () => {
    const requests: Array<{ method: string; params: any }> = [];
    const { fake, h, capabilities } = host(requests, []);
    registerCompletionProvider(h, capabilities.registrations('completion')[0]!);
    const other = fake.addModel('kandev-session', 's2', '/a.ts', 'a');
    expect(await fake.active()[0]!.provider.provideCompletionItems(other, { lineNumber: 1, column: 2 }, { triggerKind: 0 }, NO_CANCEL)).toBeUndefined();
    expect(requests).toEqual([]);
  });
});
