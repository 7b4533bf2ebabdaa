import i18next from 'i18next';
import { toDisposable, type Disposable } from '@kandev/kit';
import { registerNavigationPaletteActions } from '../lib/monaco/navigationPaletteActions.js';
import type { MonacoApi } from '../lib/monaco/monacoApi.js';

/** The window's palette entries for Go to / Peek Declaration, Type Definition and Implementations, in the page's language. */
export function navigationPaletteActionsFor(monaco: MonacoApi, text: (key: string) => string): Disposable {
  const actions = registerNavigationPaletteActions(monaco, (key) => text(`navigation.${key}`));
  const relabel = () => actions.relabel();
  i18next.on('languageChanged', relabel);
  return toDisposable(() => {
    i18next.off('languageChanged', relabel);
    actions.dispose();
  });
}
