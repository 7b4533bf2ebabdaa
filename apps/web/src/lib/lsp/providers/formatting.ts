import type * as Monaco from 'monaco-editor';
import type { FormattingOptions, TextEdit } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import { DisposableStore, type Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

/** LSP TextEdits -> Monaco text edits (malformed entries dropped). */
export function toMonacoTextEdits(edits: TextEdit[] | null | undefined): Monaco.languages.TextEdit[] {
  if (!Array.isArray(edits)) return [];
  return edits.filter((e) => isLspRange(e?.range) && typeof e.newText === 'string').map((e) => ({ range: toMonacoRange(e.range), text: e.newText }));
}

export function toFormattingOptions(options: Monaco.languages.FormattingOptions): FormattingOptions {
  return { tabSize: options.tabSize, insertSpaces: options.insertSpaces };
}

/** Format Document (Shift+Alt+F) with the server's formatter, and the format-on-save source. */
export function registerFormattingProvider(host: ProviderHost, registration: FeatureRegistration<'formatting'>): Disposable {
  const store = new DisposableStore();
  const { context } = host;
  const provider: Monaco.languages.DocumentFormattingEditProvider = {
    displayName: 'Kandev LSP',
    async provideDocumentFormattingEdits(model, options, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      context.flush(target.path);
      try {
        return toMonacoTextEdits(
          await context.request<TextEdit[] | null>(
            'textDocument/formatting',
            { textDocument: { uri: target.uri }, options: toFormattingOptions(options) },
            token,
          ),
        );
      } catch {
        return null;
      }
    },
  };
  store.add(host.languages.registerDocumentFormattingEditProvider(host.selector, markKandevProvider(provider)));
  store.add(
    host.editing.formatters.add(context.sessionId, context.language, async (path, options) => {
      const uri = host.targetUri(path, registration);
      if (!uri) return undefined;
      context.flush(path);
      const edits = await context.request<TextEdit[] | null>('textDocument/formatting', { textDocument: { uri }, options });
      return Array.isArray(edits) ? edits : [];
    }),
  );
  return store;
}

export function registerRangeFormattingProvider(host: ProviderHost, registration: FeatureRegistration<'rangeFormatting'>): Disposable {
  const provider: Monaco.languages.DocumentRangeFormattingEditProvider = {
    displayName: 'Kandev LSP',
    async provideDocumentRangeFormattingEdits(model, range, options, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      const lspRange = {
        start: { line: range.startLineNumber - 1, character: range.startColumn - 1 },
        end: { line: range.endLineNumber - 1, character: range.endColumn - 1 },
      };
      try {
        return toMonacoTextEdits(
          await host.context.request<TextEdit[] | null>(
            'textDocument/rangeFormatting',
            { textDocument: { uri: target.uri }, range: lspRange, options: toFormattingOptions(options) },
            token,
          ),
        );
      } catch {
        return null;
      }
    },
  };
  return host.languages.registerDocumentRangeFormattingEditProvider(host.selector, markKandevProvider(provider));
}

/** On-type formatting: only when the language's "format on type" switch is on (off by default). */
export function registerOnTypeFormattingProvider(host: ProviderHost, registration: FeatureRegistration<'onTypeFormatting'>): Disposable {
  if (!host.preferences().formatOnType) return { dispose: () => undefined };
  const { firstTriggerCharacter, moreTriggerCharacter } = registration.options;
  const provider: Monaco.languages.OnTypeFormattingEditProvider = {
    autoFormatTriggerCharacters: [firstTriggerCharacter, ...(Array.isArray(moreTriggerCharacter) ? moreTriggerCharacter : [])],
    async provideOnTypeFormattingEdits(model, position, ch, options, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      try {
        return toMonacoTextEdits(
          await host.context.request<TextEdit[] | null>(
            'textDocument/onTypeFormatting',
            { textDocument: { uri: target.uri }, position: toLspPosition(position), ch, options: toFormattingOptions(options) },
            token,
          ),
        );
      } catch {
        return null;
      }
    },
  };
  return host.languages.registerOnTypeFormattingEditProvider(host.selector, markKandevProvider(provider));
}
