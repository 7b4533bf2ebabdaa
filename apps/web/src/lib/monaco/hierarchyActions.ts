import type * as Monaco from 'monaco-editor';
import { DisposableStore, toDisposable, type Disposable } from '@kandev/kit';
import { hierarchySourcesFor, type HierarchyKind, type HierarchyRequests, type HierarchySource } from '../lsp/editing/hierarchy.js';
import type { KeyedSources } from '../lsp/editing/registry.js';
import { parseSessionModelUri } from '../lsp/uris.js';
import type { MonacoApi } from './monacoApi.js';

/** Context keys that say the editor's model has a hierarchy of that kind (the actions' precondition). */
export const HIERARCHY_CONTEXT_KEYS: Record<HierarchyKind, string> = {
  calls: 'kandev.hasCallHierarchy',
  types: 'kandev.hasTypeHierarchy',
};

export interface HierarchyActionDeps {
  sources: KeyedSources<HierarchySource>;
  requests: HierarchyRequests;
  /** Localized action labels (they must keep "Call Hierarchy" / "Type Hierarchy" in English, as VS Code's do). */
  labels(): Record<HierarchyKind, string>;
}

type KeyedEditor = Monaco.editor.ICodeEditor & { createContextKey?: Monaco.editor.IStandaloneCodeEditor['createContextKey'] };

function modelTarget(editor: Monaco.editor.ICodeEditor): { sessionId: string; path: string } | undefined {
  const model = editor.getModel();
  return model ? parseSessionModelUri(model.uri) : undefined;
}

/** Keeps one editor's context keys true exactly while its model's session has a source of that kind. */
function trackEditor(editor: KeyedEditor, sources: KeyedSources<HierarchySource>): Disposable {
  if (typeof editor.createContextKey !== 'function') return toDisposable(() => undefined);
  const keys = (Object.keys(HIERARCHY_CONTEXT_KEYS) as HierarchyKind[]).map((kind) => ({
    kind,
    key: editor.createContextKey!(HIERARCHY_CONTEXT_KEYS[kind], false),
  }));
  const update = () => {
    const target = modelTarget(editor);
    for (const { kind, key } of keys) key.set(target !== undefined && hierarchySourcesFor(sources, target.sessionId, target.path, kind).length > 0);
  };
  update();
  const store = new DisposableStore();
  store.add(editor.onDidChangeModel(update));
  store.add(sources.onDidChange(update));
  return store;
}

/**
 * Show Call Hierarchy (Shift+Alt+H, as VS Code) and Show Type Hierarchy (Shift+Alt+T) in every
 * code editor: in the context menu's navigation group and the command palette (F1) while a
 * running server offers them for the file; they ask the session's panel to show the hierarchy.
 * `relabel` registers them again with the labels of the current locale.
 */
export function registerHierarchyActions(monaco: MonacoApi, deps: HierarchyActionDeps): Disposable & { relabel(): void } {
  const store = new DisposableStore();
  const track = (editor: Monaco.editor.ICodeEditor) => {
    const tracked = store.add(trackEditor(editor as KeyedEditor, deps.sources));
    // An editor's keys go with it (tabs come and go; the window's store stays).
    const gone = editor.onDidDispose(() => {
      gone.dispose();
      tracked.dispose();
      store.delete(tracked);
    });
  };
  store.add(monaco.editor.onDidCreateEditor(track));
  monaco.editor.getEditors().forEach(track);
  let actions = new DisposableStore();
  store.add(toDisposable(() => actions.dispose()));
  const keys: Record<HierarchyKind, number> = {
    calls: monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyH,
    types: monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyT,
  };
  const register = () => {
    actions.dispose();
    actions = new DisposableStore();
    const labels = deps.labels();
    (['calls', 'types'] as const).forEach((kind, i) => {
      actions.add(
        monaco.editor.addEditorAction({
          id: kind === 'calls' ? 'kandev.showCallHierarchy' : 'kandev.showTypeHierarchy',
          label: labels[kind],
          precondition: HIERARCHY_CONTEXT_KEYS[kind],
          keybindings: [keys[kind]],
          contextMenuGroupId: 'navigation',
          contextMenuOrder: 1.7 + i / 10,
          run(editor) {
            const target = modelTarget(editor);
            const position = editor.getPosition();
            if (!target || !position) return;
            deps.requests.show({ ...target, kind, position: { line: position.lineNumber - 1, character: position.column - 1 } });
          },
        }),
      );
    });
  };
  register();
  return Object.assign(store, { relabel: register });
}
