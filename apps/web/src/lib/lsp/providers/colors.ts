import type * as Monaco from 'monaco-editor';
import type { Color, ColorInformation, ColorPresentation } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import type { Disposable } from '@kandev/kit';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { ProviderHost } from './host.js';
import { isLspRange, toMonacoRange } from './ranges.js';

function isColor(value: unknown): value is Color {
  return isRecord(value) && ['red', 'green', 'blue', 'alpha'].every((k) => typeof value[k] === 'number');
}

/** LSP and Monaco colors are both 0..1 per channel; anything else is dropped. */
export function toMonacoColorInformation(info: ColorInformation): Monaco.languages.IColorInformation | undefined {
  if (!isRecord(info) || !isLspRange(info.range) || !isColor(info.color)) return undefined;
  const { red, green, blue, alpha } = info.color;
  return { range: toMonacoRange(info.range), color: { red, green, blue, alpha } };
}

export function toMonacoColorPresentation(presentation: ColorPresentation): Monaco.languages.IColorPresentation | undefined {
  if (!isRecord(presentation) || typeof presentation.label !== 'string') return undefined;
  const out: Monaco.languages.IColorPresentation = { label: presentation.label };
  const edit = presentation.textEdit;
  if (edit && isLspRange(edit.range) && typeof edit.newText === 'string') out.textEdit = { range: toMonacoRange(edit.range), text: edit.newText };
  if (Array.isArray(presentation.additionalTextEdits)) {
    out.additionalTextEdits = presentation.additionalTextEdits
      .filter((e) => isLspRange(e?.range) && typeof e.newText === 'string')
      .map((e) => ({ range: toMonacoRange(e.range), text: e.newText }));
  }
  return out;
}

/**
 * Color swatches (textDocument/documentColor) and Monaco's color picker, whose formats come from
 * textDocument/colorPresentation: picking one edits the text as the server says.
 */
export function registerColorProvider(host: ProviderHost, registration: FeatureRegistration<'color'>): Disposable {
  const { context } = host;
  const provider: Monaco.languages.DocumentColorProvider = {
    async provideDocumentColors(model, token) {
      // Monaco's colour detector asks the moment this provider registers, and that is inside the
      // generation's activation, just before it opens its documents (attachment.ts): answered then,
      // the model would look unowned, Monaco would keep its own regex swatches and not ask again
      // until the text changes. By the next microtask the activation has opened them.
      await Promise.resolve();
      const target = host.target(model, registration);
      if (!target) return null;
      context.flush(target.path);
      try {
        const result = await context.request<ColorInformation[] | null>('textDocument/documentColor', { textDocument: { uri: target.uri } }, token);
        return (Array.isArray(result) ? result : []).map(toMonacoColorInformation).filter((c) => c !== undefined);
      } catch {
        return null;
      }
    },
    async provideColorPresentations(model, info, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      context.flush(target.path);
      const range = info.range;
      const params = {
        textDocument: { uri: target.uri },
        color: info.color,
        range: {
          start: { line: range.startLineNumber - 1, character: range.startColumn - 1 },
          end: { line: range.endLineNumber - 1, character: range.endColumn - 1 },
        },
      };
      try {
        const result = await context.request<ColorPresentation[] | null>('textDocument/colorPresentation', params, token);
        return (Array.isArray(result) ? result : []).map(toMonacoColorPresentation).filter((p) => p !== undefined);
      } catch {
        return null;
      }
    },
  };
  return host.languages.registerColorProvider(host.selector, markKandevProvider(provider));
}
