import type * as Monaco from 'monaco-editor';
import type { SemanticTokens, SemanticTokensDelta } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import { DisposableStore, type Disposable } from '@kandev/kit';
import type { CancellationLike } from '../jsonRpc.js';
import { settleKey } from '../settle.js';
import type { ProviderHost } from './host.js';

/**
 * Above this many lines a document's semantic tokens are asked for the visible range only, when
 * the server offers ranges: a whole-file answer for a big file costs the server (and the wire) on
 * every pause in typing, while the person only sees a screenful.
 */
export const RANGE_ONLY_LINES = 5_000;

/**
 * A full semantic-tokens result -> Monaco tokens. A valid empty `data` array is a completed,
 * empty result (S17): Monaco stores it and does not ask again until the document or the server
 * (workspace/semanticTokens/refresh) says so. Only `null` means "no result".
 */
export function toMonacoSemanticTokens(result: SemanticTokens | null | undefined): Monaco.languages.SemanticTokens | null {
  if (!result || !Array.isArray(result.data)) return null;
  const data = Uint32Array.from(result.data);
  return typeof result.resultId === 'string' ? { data, resultId: result.resultId } : { data };
}

/** A full/delta answer -> Monaco's edits to the tokens it holds (or full tokens, when the server sent those). */
export function toMonacoSemanticTokensEdits(
  result: SemanticTokensDelta | SemanticTokens | null | undefined,
): Monaco.languages.SemanticTokens | Monaco.languages.SemanticTokensEdits | null {
  if (!result) return null;
  if (Array.isArray((result as SemanticTokens).data)) return toMonacoSemanticTokens(result as SemanticTokens);
  const edits = (result as SemanticTokensDelta).edits;
  if (!Array.isArray(edits)) return null;
  const out: Monaco.languages.SemanticTokensEdits = {
    ...(typeof result.resultId === 'string' ? { resultId: result.resultId } : {}),
    edits: edits
      .filter((e) => typeof e?.start === 'number' && typeof e.deleteCount === 'number')
      .map((e) =>
        Array.isArray(e.data) ? { start: e.start, deleteCount: e.deleteCount, data: Uint32Array.from(e.data) } : { start: e.start, deleteCount: e.deleteCount },
      ),
  };
  return out;
}

/**
 * What the whole-document provider gives Monaco for a document served by ranges. A `null` answer
 * would mark the document's tokens complete, and Monaco's viewport then never asks the range
 * provider again: a big file would keep the tokens of its first screen and lose them at the first
 * edit. An error Monaco knows as a cancellation leaves the tokens incomplete and reports nothing.
 */
export function servedByRanges(): Error {
  const error = new Error('Canceled');
  error.name = 'Canceled';
  return error;
}

function offersDelta(full: unknown): boolean {
  return typeof full === 'object' && full !== null && (full as { delta?: unknown }).delta === true;
}

/**
 * Semantic tokens, asked when typing pauses (not per keystroke) and narrowed as the protocol
 * allows: `full/delta` against the previous result when the server offers it, and the visible
 * range only for documents above RANGE_ONLY_LINES when it offers ranges.
 */
export function registerSemanticTokensProvider(host: ProviderHost, registration: FeatureRegistration<'semanticTokens'>): Disposable {
  const store = new DisposableStore();
  const { context } = host;
  const options = registration.options;
  const legend: Monaco.languages.SemanticTokensLegend = {
    tokenTypes: [...options.legend.tokenTypes],
    tokenModifiers: [...options.legend.tokenModifiers],
  };
  const hasRange = Boolean(options.range);
  const hasFull = Boolean(options.full);
  const delta = offersDelta(options.full);
  const onDidChange = ((listener: () => void) => context.onSemanticTokensRefresh(listener)) as Monaco.IEvent<void>;

  const ask = async <T>(
    model: Monaco.editor.ITextModel,
    path: string,
    kind: string,
    fingerprint: string,
    token: CancellationLike,
    send: (cancel: CancellationLike) => Promise<T>,
  ) => {
    const settled = await host.settled.request(
      settleKey(path, `${kind}.${registration.id}`),
      `${model.getVersionId()}\u0000${fingerprint}`,
      host.settleMs.text,
      token,
      (cancel) => {
        context.flush(path);
        return send(cancel);
      },
    );
    return settled.kind === 'answered' ? settled.value : undefined;
  };

  if (hasFull) {
    const provider: Monaco.languages.DocumentSemanticTokensProvider = {
      onDidChange,
      getLegend: () => legend,
      async provideDocumentSemanticTokens(model, lastResultId, token) {
        const target = host.target(model, registration);
        if (!target) return null;
        // A big document is served by the range provider below (Monaco asks it for the viewport).
        if (hasRange && model.getLineCount() > RANGE_ONLY_LINES) throw servedByRanges();
        const textDocument = { uri: target.uri };
        try {
          if (delta && lastResultId) {
            const result = await ask(model, target.path, 'semanticTokens', `delta ${lastResultId}`, token, (cancel) =>
              context.request<SemanticTokensDelta | SemanticTokens | null>(
                'textDocument/semanticTokens/full/delta',
                { textDocument, previousResultId: lastResultId },
                cancel,
              ),
            );
            return toMonacoSemanticTokensEdits(result);
          }
          const result = await ask(model, target.path, 'semanticTokens', 'full', token, (cancel) =>
            context.request<SemanticTokens | null>('textDocument/semanticTokens/full', { textDocument }, cancel),
          );
          return toMonacoSemanticTokens(result);
        } catch {
          return null;
        }
      },
      releaseDocumentSemanticTokens: () => undefined,
    };
    store.add(host.languages.registerDocumentSemanticTokensProvider(host.selector, markKandevProvider(provider)));
  }
  if (hasRange) {
    const provider: Monaco.languages.DocumentRangeSemanticTokensProvider = {
      onDidChange,
      getLegend: () => legend,
      async provideDocumentRangeSemanticTokens(model, range, token) {
        const target = host.target(model, registration);
        if (!target) return null;
        // A document small enough for full tokens gets them: asking for its viewport too would only double the work.
        if (hasFull && model.getLineCount() <= RANGE_ONLY_LINES) return null;
        const lspRange = {
          start: { line: range.startLineNumber - 1, character: range.startColumn - 1 },
          end: { line: range.endLineNumber - 1, character: range.endColumn - 1 },
        };
        try {
          const result = await ask(model, target.path, 'semanticTokensRange', JSON.stringify(lspRange), token, (cancel) =>
            context.request<SemanticTokens | null>('textDocument/semanticTokens/range', { textDocument: { uri: target.uri }, range: lspRange }, cancel),
          );
          return toMonacoSemanticTokens(result);
        } catch {
          return null;
        }
      },
    };
    store.add(host.languages.registerDocumentRangeSemanticTokensProvider(host.selector, markKandevProvider(provider)));
  }
  return store;
}
