import type * as Monaco from 'monaco-editor';
import type { Hover, MarkedString, MarkupContent } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';
import { toMarkdown } from './markdown.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

/** LSP Hover (MarkupContent, MarkedString, or MarkedString[]) -> Monaco Hover; nothing to show -> null. */
export function toMonacoHover(hover: Hover | null | undefined): Monaco.languages.Hover | null {
  if (!hover || hover.contents === undefined || hover.contents === null) return null;
  const parts: Array<MarkupContent | MarkedString> = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const contents = parts.map((p) => toMarkdown(p)).filter((m): m is Monaco.IMarkdownString => m !== undefined);
  if (contents.length === 0) return null;
  const out: Monaco.languages.Hover = { contents };
  if (isLspRange(hover.range)) out.range = toMonacoRange(hover.range);
  return out;
}

export function registerHoverProvider(host: ProviderHost, registration: FeatureRegistration<'hover'>): Disposable {
  const provider: Monaco.languages.HoverProvider = {
    async provideHover(model, position, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      try {
        const hover = await host.context.request<Hover | null>(
          'textDocument/hover',
          { textDocument: { uri: target.uri }, position: toLspPosition(position) },
          token,
        );
        return toMonacoHover(hover);
      } catch {
        return null;
      }
    },
  };
  return host.languages.registerHoverProvider(host.selector, markKandevProvider(provider));
}
