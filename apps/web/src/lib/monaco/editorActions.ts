import type * as Monaco from 'monaco-editor';
import { DisposableStore, toDisposable, type Disposable } from '@kandev/kit';
import type { MonacoApi } from './monacoApi.js';

/** What a standalone editor has beyond ICodeEditor (a diff editor's inner editors lack these). */
export type ActionEditor = Monaco.editor.ICodeEditor & Partial<Pick<Monaco.editor.IStandaloneCodeEditor, 'createContextKey' | 'addAction'>>;

export interface EditorActionsSpec {
  /** Whether an editor gets the actions (it must have what they use). */
  accepts(editor: ActionEditor): boolean;
  /** Per-editor state kept while the editor lives (context keys and their listeners). */
  setUp?(editor: ActionEditor): Disposable;
  /** Adds the actions, with the labels of the current locale, into `into`. */
  addActions(editor: ActionEditor, into: DisposableStore): void;
}

/**
 * Actions of every standalone code editor, now and later: the standalone command palette (F1)
 * lists only an editor's own actions, so they are added per editor, and go with it (tabs come and
 * go; the window's registration stays). `relabel` adds them again after the locale changes.
 */
export function trackEditorActions(monaco: MonacoApi, spec: EditorActionsSpec): Disposable & { relabel(): void } {
  const store = new DisposableStore();
  const tracked = new Map<ActionEditor, DisposableStore>();

  const track = (editor: ActionEditor) => {
    if (tracked.has(editor) || !spec.accepts(editor)) return;
    const state = spec.setUp?.(editor);
    const actions = new DisposableStore();
    spec.addActions(editor, actions);
    tracked.set(editor, actions);
    const untrack = () => {
      disposed.dispose();
      state?.dispose();
      tracked.get(editor)?.dispose();
      tracked.delete(editor);
      store.delete(handle);
    };
    const disposed = editor.onDidDispose(untrack);
    const handle = store.add(toDisposable(untrack));
  };

  // Monaco announces an editor from inside its constructor, before its own services are set
  // (addAction would register no keys then): it is tracked right after, unless it was disposed
  // meanwhile (a throwaway editor: its context keys are gone, and adding an action throws).
  store.add(
    monaco.editor.onDidCreateEditor((editor) => {
      let disposed = false;
      const gone = editor.onDidDispose(() => (disposed = true));
      queueMicrotask(() => {
        gone.dispose();
        if (!disposed && !store.isDisposed) track(editor as ActionEditor);
      });
    }),
  );
  for (const editor of monaco.editor.getEditors()) track(editor as ActionEditor);

  const relabel = () => {
    for (const [editor, actions] of [...tracked]) {
      actions.dispose();
      const fresh = new DisposableStore();
      spec.addActions(editor, fresh);
      tracked.set(editor, fresh);
    }
  };
  return Object.assign(store, { relabel });
}
