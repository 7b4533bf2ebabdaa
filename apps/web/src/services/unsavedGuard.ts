import type { Disposable } from '@kandev/kit';

/**
 * Asks the browser to confirm leaving the page (reload, close, typing another address) while any
 * editor holds unsaved text: the models live in this page only, so leaving would lose them. The
 * browser shows its own confirmation; a page with nothing unsaved leaves without one.
 */
export function guardUnsavedOnLeave(hasUnsavedChanges: () => boolean, target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): Disposable {
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!hasUnsavedChanges()) return;
    event.preventDefault();
    // Older Chromium versions still need returnValue set to show the confirmation.
    event.returnValue = '';
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return { dispose: () => target.removeEventListener('beforeunload', onBeforeUnload) };
}
