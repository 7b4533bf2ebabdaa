import type * as Monaco from 'monaco-editor';
import { DisposableStore, type Disposable } from '@kandev/kit';
import { hierarchySourcesFor, type HierarchyKind, type HierarchyRequests, type HierarchySource } from '../lsp/editing/hierarchy.js';
import type { KeyedSources } from '../lsp/editing/registry.js';
import { parseSessionModelUri } from '../lsp/uris.js';
import { trackEditorActions, type ActionEditor } from './editorActions.js';
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
  const keys: Record<HierarchyKind, number> = {
    calls: monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyH,
    types: monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyT,
  };
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

  return trackEditorActions(monaco, {
    accepts: (editor) => typeof editor.createContextKey === 'function' && typeof editor.addAction === 'function',
    // Each hierarchy's context key follows the editor's file and the servers that offer it.
    setUp(editor) {
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
      return listeners;
    },
    addActions,
  });
}
