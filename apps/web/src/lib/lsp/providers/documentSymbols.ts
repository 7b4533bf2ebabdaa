import type * as Monaco from 'monaco-editor';
import type { DocumentSymbol, Position, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import { DisposableStore, type Disposable } from '@kandev/kit';
import type { OutlineSymbol } from '../editing/registry.js';
import type { CancellationLike } from '../jsonRpc.js';
import type { ProviderHost } from './host.js';
import { isLspRange, toMonacoRange } from './ranges.js';
import { settleKey } from '../settle.js';

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

export function rangeContains(outer: Range, inner: Range): boolean {
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

function fromHierarchical(symbol: DocumentSymbol): OutlineSymbol | undefined {
  if (typeof symbol.name !== 'string' || !isLspRange(symbol.range)) return undefined;
  const selectionRange = isLspRange(symbol.selectionRange) ? symbol.selectionRange : symbol.range;
  const out: OutlineSymbol = {
    name: symbol.name,
    kind: typeof symbol.kind === 'number' ? symbol.kind : 13,
    range: symbol.range,
    selectionRange,
    children: (Array.isArray(symbol.children) ? symbol.children : []).map(fromHierarchical).filter((s): s is OutlineSymbol => s !== undefined),
  };
  if (typeof symbol.detail === 'string' && symbol.detail) out.detail = symbol.detail;
  if (symbol.deprecated === true || symbol.tags?.includes(1)) out.deprecated = true;
  return out;
}

/**
 * Flat SymbolInformation[] -> a tree: each symbol goes under the innermost earlier symbol whose
 * range contains it (containerName alone is ambiguous: two classes may both have a `run`).
 */
function fromFlat(list: SymbolInformation[], uri: string): OutlineSymbol[] {
  const items = list
    .filter((s) => typeof s.name === 'string' && s.location?.uri === uri && isLspRange(s.location.range))
    .map((s): OutlineSymbol => ({
      name: s.name,
      kind: s.kind,
      range: s.location.range,
      selectionRange: s.location.range,
      children: [],
      ...(s.containerName ? { detail: s.containerName } : {}),
      ...(s.deprecated || s.tags?.includes(1) ? { deprecated: true } : {}),
    }))
    // By start, containers (ending later) before what they contain.
    .sort(
      (a, b) =>
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character ||
        b.range.end.line - a.range.end.line ||
        b.range.end.character - a.range.end.character,
    );
  const roots: OutlineSymbol[] = [];
  const stack: OutlineSymbol[] = [];
  for (const item of items) {
    while (stack.length && !rangeContains((stack[stack.length - 1] as OutlineSymbol).range, item.range)) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(item);
    else roots.push(item);
    stack.push(item);
  }
  return roots;
}

/** Siblings in document order (servers may answer by name, as tsserver's navigation tree does). */
function byPosition(list: OutlineSymbol[]): OutlineSymbol[] {
  for (const s of list) s.children = byPosition(s.children);
  return list.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** A documentSymbol answer, hierarchical or flat, as one outline tree in document order. `uri` filters flat answers. */
export function toOutline(result: Array<DocumentSymbol | SymbolInformation> | null | undefined, uri: string): OutlineSymbol[] {
  if (!Array.isArray(result) || result.length === 0) return [];
  const flat = result.some((s) => typeof (s as SymbolInformation).location === 'object');
  if (flat) return fromFlat(result as SymbolInformation[], uri);
  return byPosition((result as DocumentSymbol[]).map(fromHierarchical).filter((s): s is OutlineSymbol => s !== undefined));
}

/** Monaco's SymbolKind is LSP's minus one (File = 0 there, 1 here). */
export function toMonacoSymbolKind(kind: number): Monaco.languages.SymbolKind {
  return (kind >= 1 && kind <= 26 ? kind - 1 : 12) as Monaco.languages.SymbolKind;
}

export function toMonacoDocumentSymbols(outline: OutlineSymbol[]): Monaco.languages.DocumentSymbol[] {
  return outline.map((s) => ({
    name: s.name,
    detail: s.detail ?? '',
    kind: toMonacoSymbolKind(s.kind),
    tags: s.deprecated ? [1 as Monaco.languages.SymbolTag] : [],
    range: toMonacoRange(s.range),
    selectionRange: toMonacoRange(s.selectionRange),
    children: toMonacoDocumentSymbols(s.children),
  }));
}

/** The chain of symbols containing a position, outermost first (breadcrumbs). */
export function symbolPathAt(outline: OutlineSymbol[], position: Position): OutlineSymbol[] {
  const path: OutlineSymbol[] = [];
  let level = outline;
  for (;;) {
    const hit = level.find((s) => rangeContains(s.range, { start: position, end: position }));
    if (!hit) return path;
    path.push(hit);
    level = hit.children;
  }
}

/**
 * Go to Symbol in File (Monaco's quick outline, Ctrl/Cmd+Shift+O) and the Outline panel's source.
 */
export function registerDocumentSymbolProvider(host: ProviderHost, registration: FeatureRegistration<'documentSymbol'>): Disposable {
  const store = new DisposableStore();
  const { context } = host;
  // Monaco's own views (quick outline, sticky scroll) and the Outline panel and breadcrumbs ask
  // through one key: one request per settled text, whoever asks.
  let unversioned = 0;
  const fetchOutline = async (
    path: string,
    uri: string,
    version: number | undefined,
    token?: CancellationLike,
  ): Promise<OutlineSymbol[] | undefined | 'superseded'> => {
    const settled = await host.settled.request(
      settleKey(path, `documentSymbol.${registration.id}`),
      // Without a model at hand there is no version to compare: never answered from an earlier one.
      version === undefined ? `unversioned ${++unversioned}` : String(version),
      host.settleMs.text,
      token,
      async (cancel) => {
        context.flush(path);
        const result = await context.request<Array<DocumentSymbol | SymbolInformation> | null>(
          'textDocument/documentSymbol',
          { textDocument: { uri } },
          cancel,
        );
        return toOutline(result, uri);
      },
    );
    return settled.kind === 'answered' ? settled.value : 'superseded';
  };
  const provider: Monaco.languages.DocumentSymbolProvider = {
    displayName: 'Kandev LSP',
    async provideDocumentSymbols(model, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      const outline = await fetchOutline(target.path, target.uri, model.getVersionId(), token);
      return Array.isArray(outline) ? toMonacoDocumentSymbols(outline) : null;
    },
  };
  store.add(host.languages.registerDocumentSymbolProvider(host.selector, markKandevProvider(provider)));
  store.add(
    host.editing.documentSymbols.add(context.sessionId, context.language, async (path, token) => {
      if (!context.isOpen(path)) return undefined;
      const uri = host.targetUri(path, registration);
      if (!uri) return undefined;
      // Superseded by another view's ask for newer text: the Outline wants an answer, so it asks again.
      for (let attempt = 0; attempt < 5 && !token?.isCancellationRequested; attempt++) {
        const outline = await fetchOutline(path, uri, host.versionOf(path), token);
        if (outline !== 'superseded') return outline;
      }
      return undefined;
    }),
  );
  return store;
}
