import type * as Monaco from 'monaco-editor';
import type { LinkedEditingRanges } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import type { Disposable } from '@kandev/kit';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { ProviderHost } from './host.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

/** The server's ranges (an HTML tag's open and close names) and, when it sends one, the pattern a name must keep. */
export function toMonacoLinkedEditingRanges(result: LinkedEditingRanges | null | undefined): Monaco.languages.LinkedEditingRanges | undefined {
  if (!isRecord(result) || !Array.isArray(result.ranges)) return undefined;
  const ranges = result.ranges.filter(isLspRange).map(toMonacoRange);
  if (ranges.length === 0) return undefined;
  const out: Monaco.languages.LinkedEditingRanges = { ranges };
  if (typeof result.wordPattern === 'string') {
    try {
      out.wordPattern = new RegExp(result.wordPattern);
    } catch {
      // A pattern JavaScript cannot compile: Monaco's word pattern for the language applies instead.
    }
  }
  return out;
}

/** Linked editing (tag pairs renamed together) from textDocument/linkedEditingRange; the editors turn `linkedEditing` on. */
export function registerLinkedEditingRangeProvider(host: ProviderHost, registration: FeatureRegistration<'linkedEditingRange'>): Disposable {
  const { context } = host;
  const provider: Monaco.languages.LinkedEditingRangeProvider = {
    async provideLinkedEditingRanges(model, position, token) {
      const target = host.target(model, registration);
      if (!target) return undefined;
      context.flush(target.path);
      try {
        const result = await context.request<LinkedEditingRanges | null>(
          'textDocument/linkedEditingRange',
          { textDocument: { uri: target.uri }, position: toLspPosition(position) },
          token,
        );
        return toMonacoLinkedEditingRanges(result);
      } catch {
        return undefined;
      }
    },
  };
  return host.languages.registerLinkedEditingRangeProvider(host.selector, markKandevProvider(provider));
}
