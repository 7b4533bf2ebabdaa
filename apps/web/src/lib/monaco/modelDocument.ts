import { documentLanguageId } from '@kandev/protocol';
import type * as Monaco from 'monaco-editor';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import type { SyncedDocument } from '../lsp/documentSync.js';

/** Monaco content changes (1-based) -> LSP incremental changes (0-based), in Monaco's order. */
export function toLspContentChanges(changes: readonly Monaco.editor.IModelContentChange[]): TextDocumentContentChangeEvent[] {
  return changes.map((c) => ({
    range: {
      start: { line: c.range.startLineNumber - 1, character: c.range.startColumn - 1 },
      end: { line: c.range.endLineNumber - 1, character: c.range.endColumn - 1 },
    },
    rangeLength: c.rangeLength,
    text: c.text,
  }));
}

/** A session model as the LSP layer sees an open document. */
export function modelDocument(path: string, model: Monaco.editor.ITextModel): SyncedDocument {
  return {
    path,
    languageId: documentLanguageId(path) ?? 'plaintext',
    getText: () => model.getValue(),
    getVersion: () => model.getVersionId(),
    onDidChangeContent: (listener) => model.onDidChangeContent((event) => listener(toLspContentChanges(event.changes))),
  };
}
