import type * as Monaco from 'monaco-editor';
import type { PrepareRenameResult, Range, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { ProviderHost, TextModel } from './host.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

/**
 * A prepareRename answer -> what Monaco shows in the rename box. `null` means "nothing to rename
 * here"; `defaultBehavior` means "the word at the cursor".
 */
export function toRenameLocation(
  result: PrepareRenameResult | null | undefined,
  model: Pick<TextModel, 'getValueInRange' | 'getWordAtPosition'>,
  position: Monaco.IPosition,
): Monaco.languages.RenameLocation | undefined {
  if (!result) return undefined;
  if (isLspRange(result)) {
    const range = toMonacoRange(result as Range);
    return { range, text: model.getValueInRange(range) };
  }
  const r = result as { range?: unknown; placeholder?: unknown; defaultBehavior?: unknown };
  if (isLspRange(r.range)) {
    const range = toMonacoRange(r.range);
    return { range, text: typeof r.placeholder === 'string' ? r.placeholder : model.getValueInRange(range) };
  }
  if (r.defaultBehavior === true) {
    const word = model.getWordAtPosition(position);
    if (!word) return undefined;
    return {
      range: { startLineNumber: position.lineNumber, startColumn: word.startColumn, endLineNumber: position.lineNumber, endColumn: word.endColumn },
      text: word.word,
    };
  }
  return undefined;
}

/**
 * F2. The resulting WorkspaceEdit is applied by Kandev itself (atomically, across open models and
 * files on the task host) and Monaco gets an empty edit: Monaco's own bulk edit could only touch
 * loaded models and would apply part of a rename when a file on disk is in conflict.
 */
export function registerRenameProvider(host: ProviderHost, registration: FeatureRegistration<'rename'>): Disposable {
  const prepare = registration.options.prepareProvider === true;
  const provider: Monaco.languages.RenameProvider = {
    async provideRenameEdits(model, position, newName, token) {
      const target = host.target(model, registration);
      if (!target) return { edits: [], rejectReason: host.text('rename.unavailable') };
      host.context.flush(target.path);
      const version = model.getVersionId();
      let edit: WorkspaceEdit | null;
      try {
        edit = await host.context.request<WorkspaceEdit | null>(
          'textDocument/rename',
          { textDocument: { uri: target.uri }, position: toLspPosition(position), newName },
          token,
        );
      } catch (err) {
        if (token.isCancellationRequested) return { edits: [] };
        const reason = refusalText(host, err) ?? host.text('rename.failed');
        // The standalone editor only logs a refusal of the edits to the console (the rename box has
        // closed by then): the notice shows it, as it does an edit that could not be applied.
        host.notify(reason);
        return { edits: [], rejectReason: reason };
      }
      if (token.isCancellationRequested) return { edits: [] };
      if (!edit) return { edits: [], rejectReason: host.text('rename.nothing') };
      const result = await host.applyEdit(edit, new Map([[target.path, version]]));
      if (result.applied) return { edits: [] };
      // Monaco's message fades; the notice stays until dismissed, since nothing was changed.
      host.notify(result.failureReason);
      return { edits: [], rejectReason: result.failureReason };
    },
  };
  if (prepare) {
    provider.resolveRenameLocation = async (model, position, token) => {
      const target = host.target(model, registration);
      if (!target) return { range: emptyRange(position), text: '', rejectReason: host.text('rename.unavailable') };
      host.context.flush(target.path);
      try {
        const result = await host.context.request<PrepareRenameResult | null>(
          'textDocument/prepareRename',
          { textDocument: { uri: target.uri }, position: toLspPosition(position) },
          token,
        );
        return toRenameLocation(result, model, position) ?? { range: emptyRange(position), text: '', rejectReason: host.text('rename.notHere') };
      } catch (err) {
        return { range: emptyRange(position), text: '', rejectReason: refusalText(host, err) ?? host.text('rename.notHere') };
      }
    };
  }
  return host.languages.registerRenameProvider(host.selector, markKandevProvider(provider));
}

function emptyRange(position: Monaco.IPosition): Monaco.IRange {
  return { startLineNumber: position.lineNumber, startColumn: position.column, endLineNumber: position.lineNumber, endColumn: position.column };
}

/**
 * What the rename box says when the request was rejected. A server's own refusal ("You cannot
 * rename this element") is shown as it wrote it. No answer in time, an error without a word, or a
 * lost connection are told in the page's language, in the words a toast uses for any other
 * request (the broker's deadline message is English and not meant for people).
 */
function refusalText(host: ProviderHost, err: unknown): string | undefined {
  const failure = host.context.failureOf('rename', err);
  if (failure && !(failure.reason === 'error' && failure.detail)) return host.failureText(failure);
  const message = (err as { message?: unknown } | undefined)?.message;
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && typeof message === 'string' && message.trim() ? message : undefined;
}
