import type { DisposableStore, Disposable } from '@kandev/kit';
import { trackEditorActions, type ActionEditor } from './editorActions.js';
import type { MonacoApi } from './monacoApi.js';

/**
 * Monaco's Go to / Peek Declaration, Type Definition and Implementations, as command palette
 * (F1) entries. Monaco registers these six as workbench actions (`registerAction2`): they are in
 * the context menu and on their keys, but the standalone palette lists only an editor's own
 * actions, so without these entries F1 never offers them. Each entry runs Monaco's own command
 * and shares its precondition (a provider for the model's language), so it is listed exactly
 * when Monaco's action would run.
 */
export const NAVIGATION_PALETTE_COMMANDS = [
  { id: 'editor.action.revealDeclaration', label: 'goToDeclaration', when: 'editorHasDeclarationProvider' },
  { id: 'editor.action.peekDeclaration', label: 'peekDeclaration', when: 'editorHasDeclarationProvider' },
  { id: 'editor.action.goToTypeDefinition', label: 'goToTypeDefinition', when: 'editorHasTypeDefinitionProvider' },
  { id: 'editor.action.peekTypeDefinition', label: 'peekTypeDefinition', when: 'editorHasTypeDefinitionProvider' },
  { id: 'editor.action.goToImplementation', label: 'goToImplementations', when: 'editorHasImplementationProvider' },
  { id: 'editor.action.peekImplementation', label: 'peekImplementations', when: 'editorHasImplementationProvider' },
] as const;

export type NavigationPaletteLabel = (typeof NAVIGATION_PALETTE_COMMANDS)[number]['label'];

/**
 * Adds the entries to every standalone code editor, with the labels of the current locale
 * (`label(key)`); `relabel` adds them again after the locale changes.
 */
export function registerNavigationPaletteActions(monaco: MonacoApi, label: (key: NavigationPaletteLabel) => string): Disposable & { relabel(): void } {
  const addActions = (editor: ActionEditor, into: DisposableStore) => {
    for (const command of NAVIGATION_PALETTE_COMMANDS) {
      into.add(
        editor.addAction!({
          id: `kandev.palette.${command.id}`,
          label: label(command.label),
          precondition: command.when,
          run(target) {
            // Monaco's command acts on the focused editor; the palette has just handed the focus back.
            target.focus();
            target.trigger('keyboard', command.id, undefined);
          },
        }),
      );
    }
  };

  return trackEditorActions(monaco, { accepts: (editor) => typeof editor.addAction === 'function', addActions });
}
