import i18next from 'i18next';
import { toDisposable, type Disposable } from '@kandev/kit';
import type { EditingRegistry } from '../lib/lsp/editing/registry.js';
import { registerHierarchyActions } from '../lib/monaco/hierarchyActions.js';
import type { MonacoApi } from '../lib/monaco/monacoApi.js';

/** The window's Show Call/Type Hierarchy actions, labelled in the page's language (again when it changes). */
export function hierarchyActionsFor(monaco: MonacoApi, editing: EditingRegistry, text: (key: string) => string): Disposable {
  const actions = registerHierarchyActions(monaco, {
    sources: editing.hierarchies,
    requests: editing.hierarchyRequests,
    labels: () => ({ calls: text('hierarchy.showCalls'), types: text('hierarchy.showTypes') }),
  });
  const relabel = () => actions.relabel();
  i18next.on('languageChanged', relabel);
  return toDisposable(() => {
    i18next.off('languageChanged', relabel);
    actions.dispose();
  });
}
