import type * as Monaco from 'monaco-editor';

/** The system setting a person turns on to see less motion (and fewer blinking things). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** The part of a MediaQueryList this reads (a test passes its own). */
export interface MotionQuery {
  readonly matches: boolean;
  addEventListener(type: 'change', listener: () => void): void;
  removeEventListener(type: 'change', listener: () => void): void;
}

/** An editor or a diff editor: both take the caret's blinking as an option. */
interface CaretOptions {
  updateOptions(options: { cursorBlinking: 'blink' | 'solid' }): void;
}

/** The page's reduced-motion query; none where there is no window (views rendered on the server side in unit tests). */
export function reducedMotionQuery(): MotionQuery | undefined {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION_QUERY) : undefined;
}

/**
 * The caret stops blinking while the person asks for reduced motion, and blinks again when they
 * stop asking: the app's spinners and dialog animations already follow the same setting. Monaco
 * blinks the caret from a timer that repaints twice a second, which also costs a little CPU on
 * machines that paint in software (a focused idle editor: about 4 % of a core here).
 */
export function caretFollowsReducedMotion(editor: CaretOptions, query: MotionQuery | undefined = reducedMotionQuery()): Monaco.IDisposable {
  if (!query) return { dispose: () => undefined };
  const apply = () => editor.updateOptions({ cursorBlinking: query.matches ? 'solid' : 'blink' });
  apply();
  query.addEventListener('change', apply);
  return { dispose: () => query.removeEventListener('change', apply) };
}
