import { useEffect, useRef } from 'react';

/** The key that closes a diff view (its close button says so through aria-keyshortcuts). */
export const CLOSE_DIFF_KEY = 'Escape';

/**
 * A Monaco hover on screen as the key goes down. Monaco hides its hover on any key without marking
 * the event used, so the hover is looked for before Monaco sees the key (capture phase).
 */
const HOVER_SHOWN = '.monaco-editor .monaco-hover:not(.hidden)';

/**
 * While a diff view is shown, Escape closes it, from wherever the focus is in the page. Escape that
 * something else already used (Monaco closing its find or suggest widget or its hover, a dialog
 * closing) is left alone. `restoreFocus` is the element focus goes to when the view took it away with itself.
 */
export function useEscapeClose(shown: boolean, close: () => void, restoreFocus: () => HTMLElement | null): void {
  const latest = useRef({ close, restoreFocus });
  latest.current = { close, restoreFocus };
  useEffect(() => {
    if (!shown) return;
    const closedHover = new WeakSet<KeyboardEvent>();
    const beforeMonaco = (event: KeyboardEvent) => {
      if (event.key === CLOSE_DIFF_KEY && document.querySelector(HOVER_SHOWN)) closedHover.add(event);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== CLOSE_DIFF_KEY || event.defaultPrevented || event.isComposing || closedHover.has(event)) return;
      const focused = document.activeElement;
      if (focused instanceof Element && focused.closest('[role="dialog"], [role="alertdialog"]')) return;
      event.preventDefault();
      // Looked up before closing: once closed, nothing says any more what the view was opened from.
      const landing = focused instanceof Element && focused.closest('.diff-view') !== null ? latest.current.restoreFocus() : null;
      // The view and the focus inside it go: focus lands first (not on the page body), then the view closes.
      landing?.focus();
      latest.current.close();
    };
    document.addEventListener('keydown', beforeMonaco, true);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', beforeMonaco, true);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [shown]);
}
