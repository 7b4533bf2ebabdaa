import type * as Monaco from 'monaco-editor';

/**
 * Monaco hides its closed find widget by sliding it out of view and marking it `aria-hidden`, yet
 * its input and buttons stay in the tab order: Tab from the editor can land on a control nobody
 * sees or hears (axe: aria-hidden-focus). While find is closed the widget is made `inert` too,
 * which takes its controls out of the tab order; it is interactive again as soon as find is
 * revealed. The reveal is read from the find controller's state, which changes before the widget
 * shows itself and focuses its input (the widget's own aria-hidden flips a tick later, too late for
 * that focus). The widget is created on the first Ctrl+F, so the editor's overlay widgets are
 * watched for it.
 */
const FIND_CONTROLLER = 'editor.contrib.findController';
const FIND_WIDGET = '.find-widget';

/** The part of Monaco's find controller (not in its public types) this reads. */
interface FindController extends Monaco.editor.IEditorContribution {
  getState(): { readonly isRevealed: boolean; onFindReplaceStateChange(listener: () => void): Monaco.IDisposable };
}

export function keepHiddenFindWidgetInert(editor: Monaco.editor.ICodeEditor): Monaco.IDisposable {
  const state = editor.getContribution<FindController>(FIND_CONTROLLER)?.getState();
  if (!state) return { dispose: () => undefined };
  const sync = () =>
    editor
      .getDomNode()
      ?.querySelectorAll(FIND_WIDGET)
      .forEach((widget) => {
        if (widget.hasAttribute('inert') === state.isRevealed) widget.toggleAttribute('inert', !state.isRevealed);
      });
  // Each model gets a new view, with its own container of overlay widgets (the find widget among
  // them): only that container's child list is watched, not the editor's busy view lines.
  let added: MutationObserver | undefined;
  const watch = () => {
    added?.disconnect();
    const overlays = editor.getDomNode()?.querySelector('.overlayWidgets');
    if (overlays) (added = new MutationObserver(sync)).observe(overlays, { childList: true });
    sync();
  };
  const revealed = state.onFindReplaceStateChange(sync);
  const model = editor.onDidChangeModel(watch);
  watch();
  return {
    dispose: () => {
      revealed.dispose();
      model.dispose();
      added?.disconnect();
    },
  };
}
