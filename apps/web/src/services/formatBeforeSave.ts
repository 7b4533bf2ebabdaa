import { languageForPath } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import { formatBeforeSave } from '../lib/lsp/editing/formatOnSave.js';
import { preferencesOf } from '../lib/lsp/editing/preferences.js';
import type { EditingRegistry } from '../lib/lsp/editing/registry.js';
import type { SettingsStore } from './settingsStore.js';

/**
 * A SessionWorkspace's `beforeSave`: format on save with the session's server formatter when the
 * language's editing preferences ask for it (docs/editing.md). Never blocks the save.
 */
export function formatOnSaveFor(sessionId: string, settings: SettingsStore, editing: EditingRegistry) {
  return (path: string, model: Monaco.editor.ITextModel): Promise<void> => {
    const language = languageForPath(path);
    if (!language) return Promise.resolve();
    return formatBeforeSave(
      path,
      {
        getVersionId: () => model.getVersionId(),
        getOptions: () => {
          const o = model.getOptions();
          return { tabSize: o.tabSize, insertSpaces: o.insertSpaces };
        },
        applyEdits: (edits) => {
          model.pushStackElement();
          model.pushEditOperations(
            [],
            edits.map((e) => ({
              range: {
                startLineNumber: e.range.start.line + 1,
                startColumn: e.range.start.character + 1,
                endLineNumber: e.range.end.line + 1,
                endColumn: e.range.end.character + 1,
              },
              text: e.newText,
            })),
            () => null,
          );
          model.pushStackElement();
        },
      },
      preferencesOf(settings.get(), language),
      editing.formatters.get(sessionId, language),
    ).then(() => undefined);
  };
}
