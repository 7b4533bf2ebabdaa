import type * as Monaco from 'monaco-editor';
import type { InlayHint, InlayHintLabelPart, MarkupContent } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';
import { toMarkdown } from './markdown.js';
import { isLspRange, toMonacoRange } from './ranges.js';
import { settleKey } from '../settle.js';

function tooltip(value: string | MarkupContent | undefined): string | Monaco.IMarkdownString | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : toMarkdown(value);
}

/** One LSP inlay hint -> Monaco's; the original is kept for resolve through `original`. */
export function toMonacoInlayHint(hint: InlayHint): Monaco.languages.InlayHint | undefined {
  if (typeof hint?.position?.line !== 'number') return undefined;
  const label: string | Monaco.languages.InlayHintLabelPart[] =
    typeof hint.label === 'string'
      ? hint.label
      : Array.isArray(hint.label)
        ? hint.label
            .filter((p: InlayHintLabelPart) => typeof p?.value === 'string')
            .map((p) => {
              const part: Monaco.languages.InlayHintLabelPart = { label: p.value };
              const tip = tooltip(p.tooltip);
              if (tip) part.tooltip = tip;
              return part;
            })
        : '';
  if (label === '' || (Array.isArray(label) && label.length === 0)) return undefined;
  const out: Monaco.languages.InlayHint = { label, position: { lineNumber: hint.position.line + 1, column: hint.position.character + 1 } };
  if (hint.kind === 1 || hint.kind === 2) out.kind = hint.kind as Monaco.languages.InlayHintKind;
  if (hint.paddingLeft) out.paddingLeft = true;
  if (hint.paddingRight) out.paddingRight = true;
  const tip = tooltip(hint.tooltip);
  if (tip) out.tooltip = tip;
  if (Array.isArray(hint.textEdits))
    out.textEdits = hint.textEdits.filter((e) => isLspRange(e.range)).map((e) => ({ range: toMonacoRange(e.range), text: e.newText }));
  return out;
}

/** Inlay hints, when the language's switch is on (off by default), with inlayHint/resolve. */
export function registerInlayHintsProvider(host: ProviderHost, registration: FeatureRegistration<'inlayHint'>): Disposable {
  if (!host.preferences().inlayHints) return { dispose: () => undefined };
  const resolvable = registration.options.resolveProvider === true;
  const originals = new WeakMap<Monaco.languages.InlayHint, InlayHint>();
  const provider: Monaco.languages.InlayHintsProvider = {
    displayName: 'Kandev LSP',
    onDidChangeInlayHints: ((listener: () => void) => host.context.onInlayHintRefresh(listener)) as Monaco.IEvent<void>,
    async provideInlayHints(model, range, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      const lspRange = {
        start: { line: range.startLineNumber - 1, character: range.startColumn - 1 },
        end: { line: range.endLineNumber - 1, character: range.endColumn - 1 },
      };
      const settled = await host.settled.request(
        settleKey(target.path, `inlayHint.${registration.id}`),
        `${model.getVersionId()}\u0000${JSON.stringify(lspRange)}`,
        host.settleMs.text,
        token,
        (cancel) => {
          host.context.flush(target.path);
          return host.context.request<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri: target.uri }, range: lspRange }, cancel);
        },
      );
      if (settled.kind !== 'answered') return null;
      const result = settled.value;
      const hints: Monaco.languages.InlayHint[] = [];
      for (const hint of Array.isArray(result) ? result : []) {
        const mapped = toMonacoInlayHint(hint);
        if (!mapped) continue;
        originals.set(mapped, hint);
        hints.push(mapped);
      }
      return { hints, dispose: () => undefined };
    },
  };
  if (resolvable) {
    provider.resolveInlayHint = async (hint, token) => {
      const original = originals.get(hint);
      if (!original) return hint;
      try {
        const resolved = await host.context.request<InlayHint>('inlayHint/resolve', original, token);
        return (resolved && toMonacoInlayHint(resolved)) ?? hint;
      } catch {
        return hint;
      }
    };
  }
  return host.languages.registerInlayHintsProvider(host.selector, markKandevProvider(provider));
}
