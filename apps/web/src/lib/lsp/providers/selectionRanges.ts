import type * as Monaco from 'monaco-editor';
import type { SelectionRange } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import type { Disposable } from '@kandev/kit';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { ProviderHost } from './host.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

/** Bounds a parent chain a server might send back looping or absurdly deep. */
const MAX_DEPTH = 256;

/** One LSP selection range (innermost, with its parents) -> Monaco's list, innermost first. */
export function toMonacoSelectionRanges(range: SelectionRange): Monaco.languages.SelectionRange[] {
  const out: Monaco.languages.SelectionRange[] = [];
  let current: unknown = range;
  while (isRecord(current) && isLspRange(current.range) && out.length < MAX_DEPTH) {
    out.push({ range: toMonacoRange(current.range) });
    current = current.parent;
  }
  return out;
}

/** Expand / Shrink Selection (Shift+Alt+Right / Left) from textDocument/selectionRange. */
export function registerSelectionRangeProvider(host: ProviderHost, registration: FeatureRegistration<'selectionRange'>): Disposable {
  const { context } = host;
  const provider: Monaco.languages.SelectionRangeProvider = {
    async provideSelectionRanges(model, positions, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      context.flush(target.path);
      try {
        const result = await context.request<SelectionRange[] | null>(
          'textDocument/selectionRange',
          { textDocument: { uri: target.uri }, positions: positions.map(toLspPosition) },
          token,
        );
        // One list per position asked, or none: Monaco pairs them by index.
        if (!Array.isArray(result) || result.length !== positions.length) return null;
        return result.map(toMonacoSelectionRanges);
      } catch {
        return null;
      }
    },
  };
  return host.languages.registerSelectionRangeProvider(host.selector, markKandevProvider(provider));
}
