import type * as Monaco from 'monaco-editor';
import type { DocumentHighlight, FoldingRange } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';
import { MonacoDocumentHighlightKind } from './monacoEnums.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';
import { settleKey } from '../settle.js';

export function toMonacoHighlights(result: DocumentHighlight[] | null | undefined): Monaco.languages.DocumentHighlight[] {
  if (!Array.isArray(result)) return [];
  return result
    .filter((h) => isLspRange(h?.range))
    .map((h) => ({
      range: toMonacoRange(h.range),
      kind: (h.kind === 2
        ? MonacoDocumentHighlightKind.Read
        : h.kind === 3
          ? MonacoDocumentHighlightKind.Write
          : MonacoDocumentHighlightKind.Text) as Monaco.languages.DocumentHighlightKind,
    }));
}

export function registerDocumentHighlightProvider(host: ProviderHost, registration: FeatureRegistration<'documentHighlight'>): Disposable {
  const provider: Monaco.languages.DocumentHighlightProvider = {
    async provideDocumentHighlights(model, position, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      const params = { textDocument: { uri: target.uri }, position: toLspPosition(position) };
      const settled = await host.settled.request(
        settleKey(target.path, `documentHighlight.${registration.id}`),
        `${model.getVersionId()}\u0000${params.position.line}:${params.position.character}`,
        host.settleMs.caret,
        token,
        (cancel) => {
          host.context.flush(target.path);
          return host.context.request<DocumentHighlight[] | null>('textDocument/documentHighlight', params, cancel);
        },
      );
      return settled.kind === 'answered' ? toMonacoHighlights(settled.value) : null;
    },
  };
  return host.languages.registerDocumentHighlightProvider(host.selector, markKandevProvider(provider));
}

/** LSP folding ranges (0-based lines) -> Monaco's (1-based); a range must span at least two lines. */
export function toMonacoFoldingRanges(
  result: FoldingRange[] | null | undefined,
  kindOf: (kind: string) => Monaco.languages.FoldingRangeKind | undefined,
): Monaco.languages.FoldingRange[] {
  if (!Array.isArray(result)) return [];
  const out: Monaco.languages.FoldingRange[] = [];
  for (const r of result) {
    if (typeof r?.startLine !== 'number' || typeof r.endLine !== 'number' || r.endLine <= r.startLine) continue;
    const range: Monaco.languages.FoldingRange = { start: r.startLine + 1, end: r.endLine + 1 };
    const kind = typeof r.kind === 'string' ? kindOf(r.kind) : undefined;
    if (kind) range.kind = kind;
    out.push(range);
  }
  return out;
}

export function registerFoldingRangeProvider(host: ProviderHost, registration: FeatureRegistration<'foldingRange'>): Disposable {
  const provider: Monaco.languages.FoldingRangeProvider = {
    async provideFoldingRanges(model, _context, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      const settled = await host.settled.request(
        settleKey(target.path, `foldingRange.${registration.id}`),
        String(model.getVersionId()),
        host.settleMs.text,
        token,
        (cancel) => {
          host.context.flush(target.path);
          return host.context.request<FoldingRange[] | null>('textDocument/foldingRange', { textDocument: { uri: target.uri } }, cancel);
        },
      );
      return settled.kind === 'answered' ? toMonacoFoldingRanges(settled.value, host.foldingKind) : null;
    },
  };
  return host.languages.registerFoldingRangeProvider(host.selector, markKandevProvider(provider));
}
