/* eslint-disable @typescript-eslint/no-explicit-any -- test fakes and assertions, as test/** allows */
/** A tiny stand-in for the parts of Monaco the provider layer touches, for Node unit tests. */
import { Emitter, toDisposable, type Disposable } from '@kandev/kit';
import type { MonacoApi } from '../providers/host.js';

export class FakeUri {
  constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
  ) {}
  static from(parts: { scheme: string; authority?: string; path?: string }): FakeUri {
    return new FakeUri(parts.scheme, parts.authority ?? '', parts.path ?? '');
  }
  static parse(value: string): FakeUri {
    const m = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(.*)$/i.exec(value);
    if (!m) return new FakeUri('unknown', '', value);
    return new FakeUri(m[1] as string, decodeURIComponent(m[2] as string), decodeURIComponent(m[3] as string));
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}`;
  }
}

export class FakeModel {
  disposed = false;
  constructor(
    readonly uri: FakeUri,
    private text = '',
    readonly languageId = 'typescript',
  ) {}
  getWordUntilPosition(position: { lineNumber: number; column: number }) {
    const line = this.text.split('\n')[position.lineNumber - 1] ?? '';
    const before = line.slice(0, position.column - 1);
    const word = /[\w$]*$/.exec(before)?.[0] ?? '';
    return { word, startColumn: position.column - word.length, endColumn: position.column };
  }
  isDisposed() {
    return this.disposed;
  }
  getLanguageId() {
    return this.languageId;
  }
  versionId = 1;
  getVersionId() {
    return this.versionId;
  }
  getValue() {
    return this.text;
  }
  getValueInRange(range: { startLineNumber: number; startColumn: number; endLineNumber: number; endColumn: number }) {
    const lines = this.text.split('\n');
    if (range.startLineNumber === range.endLineNumber) return (lines[range.startLineNumber - 1] ?? '').slice(range.startColumn - 1, range.endColumn - 1);
    return lines.slice(range.startLineNumber - 1, range.endLineNumber).join('\n');
  }
  getWordAtPosition(position: { lineNumber: number; column: number }) {
    const line = this.text.split('\n')[position.lineNumber - 1] ?? '';
    const re = /[\w$]+/g;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      if (m.index + 1 <= position.column && position.column <= m.index + 1 + m[0].length)
        return { word: m[0], startColumn: m.index + 1, endColumn: m.index + 1 + m[0].length };
    }
    return null;
  }
}

export interface Registered {
  kind: string;
  selector: unknown;
  provider: any;
  disposed: boolean;
}

export function createFakeMonaco() {
  const registered: Registered[] = [];
  const models = new Map<string, FakeModel>();
  const markers = new Map<string, Map<string, any[]>>();
  const willDispose = new Emitter<FakeModel>();
  const register =
    (kind: string) =>
    (selector: unknown, provider: unknown): Disposable => {
      const entry: Registered = { kind, selector, provider, disposed: false };
      registered.push(entry);
      return toDisposable(() => void (entry.disposed = true));
    };
  const languages = {
    registerCompletionItemProvider: register('completion'),
    registerHoverProvider: register('hover'),
    registerDefinitionProvider: register('definition'),
    registerReferenceProvider: register('references'),
    registerSignatureHelpProvider: register('signatureHelp'),
    registerDocumentSemanticTokensProvider: register('semanticTokens'),
    registerDocumentRangeSemanticTokensProvider: register('semanticTokensRange'),
    registerDocumentSymbolProvider: register('documentSymbol'),
    registerRenameProvider: register('rename'),
    registerCodeActionProvider: register('codeAction'),
    registerDocumentFormattingEditProvider: register('formatting'),
    registerDocumentRangeFormattingEditProvider: register('rangeFormatting'),
    registerOnTypeFormattingEditProvider: register('onTypeFormatting'),
    registerDocumentHighlightProvider: register('documentHighlight'),
    registerFoldingRangeProvider: register('foldingRange'),
    registerInlayHintsProvider: register('inlayHint'),
    registerImplementationProvider: register('implementation'),
    registerTypeDefinitionProvider: register('typeDefinition'),
    registerDeclarationProvider: register('declaration'),
  };
  const commands = new Map<string, Array<(accessor: unknown, ...args: any[]) => unknown>>();
  const editor = {
    getModel: (uri: FakeUri) => models.get(uri.toString()) ?? null,
    getModels: () => [...models.values()],
    setModelMarkers: (model: FakeModel, owner: string, data: any[]) => {
      const key = model.uri.toString();
      if (!markers.has(key)) markers.set(key, new Map());
      markers.get(key)!.set(owner, data);
    },
    getModelMarkers: (filter: { owner?: string; resource?: FakeUri }) => {
      const out: any[] = [];
      for (const [uri, byOwner] of markers) {
        if (filter.resource && filter.resource.toString() !== uri) continue;
        for (const [owner, list] of byOwner) if (!filter.owner || filter.owner === owner) out.push(...list.map((m) => ({ ...m, owner })));
      }
      return out;
    },
    onWillDisposeModel: (listener: (m: FakeModel) => void) => willDispose.event(listener),
    registerCommand: (id: string, handler: (accessor: unknown, ...args: any[]) => unknown): Disposable => {
      const list = commands.get(id) ?? [];
      list.push(handler);
      commands.set(id, list);
      return toDisposable(() => {
        const current = commands.get(id) ?? [];
        current.splice(current.indexOf(handler), 1);
        if (current.length === 0) commands.delete(id);
      });
    },
  };
  /** Runs a registered command as Monaco's command service would (the newest registration wins). */
  const executeCommand = (id: string, ...args: unknown[]) => {
    const list = commands.get(id);
    if (!list?.length) throw new Error(`no command ${id}`);
    return list[list.length - 1]!(undefined, ...args);
  };
  const addModel = (scheme: string, authority: string, path: string, text = '') => {
    const model = new FakeModel(new FakeUri(scheme, authority, path), text);
    models.set(model.uri.toString(), model);
    return model;
  };
  const disposeModel = (model: FakeModel) => {
    willDispose.fire(model);
    model.disposed = true;
    models.delete(model.uri.toString());
  };
  const monaco = { languages, editor, Uri: FakeUri } as unknown as MonacoApi;
  return {
    monaco,
    languages,
    editor,
    registered,
    markers,
    addModel,
    disposeModel,
    commands,
    executeCommand,
    active: () => registered.filter((r) => !r.disposed),
  };
}

/** A cancellation token that never cancels. */
export const NO_CANCEL = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
