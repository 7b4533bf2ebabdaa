import type * as Monaco from 'monaco-editor';
import type { SemanticTokens } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';

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

export function registerSemanticTokensProvider(host: ProviderHost, registration: FeatureRegistration<'semanticTokens'>): Disposable {
  const legend: Monaco.languages.SemanticTokensLegend = {
    tokenTypes: [...registration.options.legend.tokenTypes],
    tokenModifiers: [...registration.options.legend.tokenModifiers],
  };
  const provider: Monaco.languages.DocumentSemanticTokensProvider = {
    onDidChange: ((listener: () => void) => host.context.onSemanticTokensRefresh(listener)) as Monaco.IEvent<void>,
    getLegend: () => legend,
    async provideDocumentSemanticTokens(model, _lastResultId, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      try {
        const result = await host.context.request<SemanticTokens | null>('textDocument/semanticTokens/full', { textDocument: { uri: target.uri } }, token);
        return toMonacoSemanticTokens(result);
      } catch {
        return null;
      }
    },
    releaseDocumentSemanticTokens: () => undefined,
  };
  return host.languages.registerDocumentSemanticTokensProvider(host.selector, markKandevProvider(provider));
}
