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

export const HIERARCHY_ACTION_IDS: Record<HierarchyKind, string> = {
  calls: 'kandev.showCallHierarchy',
  types: 'kandev.showTypeHierarchy',
};

const KINDS: readonly HierarchyKind[] = ['calls', 'types'];

export interface HierarchyActionDeps {
  sources: KeyedSources<HierarchySource>;
  requests: HierarchyRequests;
  /** Localized action labels (they must keep "Call Hierarchy" / "Type Hierarchy" in English, as VS Code's do). */
  labels(): Record<HierarchyKind, string>;
}

/** What a standalone editor has beyond ICodeEditor (a diff editor's inner editors lack it). */
type ActionEditor = Monaco.editor.ICodeEditor & Partial<Pick<Monaco.editor.IStandaloneCodeEditor, 'createContextKey' | 'addAction'>>;

function modelTarget(editor: Monaco.editor.ICodeEditor): { sessionId: string; path: string } | undefined {
  const model = editor.getModel();
  return model ? parseSessionModelUri(model.uri) : undefined;
}

/**
 * The editor to give the focus back to: the one the hierarchy was asked from, or, when that one
 * went away meanwhile (a jump to a file not open yet can replace it), the one now showing a file
 * of the same session.
 */
function sessionEditor(monaco: MonacoApi, asked: Monaco.editor.ICodeEditor, sessionId: string): Monaco.editor.ICodeEditor | undefined {
  if (asked.getModel()) return asked;
  return monaco.editor.getEditors().find((editor) => {
    const model = editor.getModel();
    return model !== null && parseSessionModelUri(model.uri)?.sessionId === sessionId && editor.getContainerDomNode().isConnected;
  });
}

/**
 * Show Call Hierarchy (Shift+Alt+H, as VS Code) and Show Type Hierarchy (Shift+Alt+T) in every
 * standalone code editor: context menu (navigation group), command palette (F1, which lists an
 * editor's own actions, so they are added per editor) and keys, enabled while a running server
 * offers that hierarchy for the editor's file. Running one asks the session's panel to show it.
 * `relabel` adds them again with the labels of the current locale.
 */
export function registerHierarchyActions(monaco: MonacoApi, deps: HierarchyActionDeps): Disposable & { relabel(): void } {
  const store = new DisposableStore();
  const keys: Record<HierarchyKind, number> = {
    calls: monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyH,
    types: monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyT,
  };
  /** Each tracked editor's actions, re-added on relabel. */
  const tracked = new Map<ActionEditor, DisposableStore>();

  const addActions = (editor: ActionEditor, into: DisposableStore) => {
    const labels = deps.labels();
    KINDS.forEach((kind, i) => {
      into.add(
        editor.addAction!({
          id: HIERARCHY_ACTION_IDS[kind],
          label: labels[kind],
          precondition: HIERARCHY_CONTEXT_KEYS[kind],
          keybindings: [keys[kind]],
          contextMenuGroupId: 'navigation',
          contextMenuOrder: 1.7 + i / 10,
          run(target) {
            const at = modelTarget(target);
            const position = target.getPosition();
            if (!at || !position) return;
            deps.requests.show({
              ...at,
              kind,
              position: { line: position.lineNumber - 1, character: position.column - 1 },
              returnFocus: () => sessionEditor(monaco, target, at.sessionId)?.focus(),
            });
          },
        }),
      );
    });
  };

  const track = (editor: ActionEditor) => {
    if (typeof editor.createContextKey !== 'function' || typeof editor.addAction !== 'function' || tracked.has(editor)) return;
    const contextKeys = KINDS.map((kind) => ({ kind, key: editor.createContextKey!<boolean>(HIERARCHY_CONTEXT_KEYS[kind], false) }));
    const update = () => {
      const target = modelTarget(editor);
      for (const { kind, key } of contextKeys)
        key.set(target !== undefined && hierarchySourcesFor(deps.sources, target.sessionId, target.path, kind).length > 0);
    };
    update();
    const listeners = new DisposableStore();
    listeners.add(editor.onDidChangeModel(update));
    listeners.add(deps.sources.onDidChange(update));
    const actions = new DisposableStore();
    addActions(editor, actions);
    tracked.set(editor, actions);
    const untrack = () => {
      listeners.dispose();
      tracked.get(editor)?.dispose();
      tracked.delete(editor);
      store.delete(handle);
    };
    const handle = store.add(toDisposable(untrack));
    // The editor's keys and actions go with it (tabs come and go; the window's registration stays).
    listeners.add(editor.onDidDispose(untrack));
  };

  // Monaco announces an editor from inside its constructor, before a standalone editor's own
  // services are set (addAction would register no keys then): it is tracked right after.
  store.add(monaco.editor.onDidCreateEditor((editor) => queueMicrotask(() => !store.isDisposed && track(editor as ActionEditor))));
  for (const editor of monaco.editor.getEditors()) track(editor as ActionEditor);

  const relabel = () => {
    for (const [editor, actions] of [...tracked]) {
      actions.dispose();
      const fresh = new DisposableStore();
      addActions(editor, fresh);
      tracked.set(editor, fresh);
    }
  };
  return Object.assign(store, { relabel });
}
