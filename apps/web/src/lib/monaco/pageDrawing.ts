/**
 * Whether the page is being drawn. Monaco resolves a code lens only once its line has been drawn
 * (the resolve pass runs about 250 ms after the lenses arrive, and again only on a scroll or a
 * layout change), so lenses handed over while the tab is in the background, where the browser
 * draws nothing or about once a second, stayed empty gaps for good when the person came back.
 * Waiting here until frames come at a drawing pace again puts them on screen when they can be
 * drawn and resolved.
 */

/** A Monaco CancellationToken's shape (structural: no Monaco needed). */
export interface DrawingCancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** Two frames at most this far apart: the page is being drawn (a background tab gets one a second, a hidden one none). */
export const DRAWING_FRAME_GAP_MS = 100;

/** The window's frame source (`requestAnimationFrame`), or none outside a browser. */
export type FrameSource = (callback: (time: number) => void) => unknown;

/** Resolves true once two consecutive frames come within `DRAWING_FRAME_GAP_MS`, false when `token` is cancelled first. */
export function whenPageDraws(
  token?: DrawingCancellation,
  frames: FrameSource | undefined = globalThis.requestAnimationFrame?.bind(globalThis),
): Promise<boolean> {
  if (!frames) return Promise.resolve(true);
  if (token?.isCancellationRequested) return Promise.resolve(false);
  return new Promise((resolve) => {
    let done = false;
    const subscription = token?.onCancellationRequested(() => finish(false));
    function finish(drawing: boolean): void {
      if (done) return;
      done = true;
      subscription?.dispose();
      resolve(drawing);
    }
    let previous: number | undefined;
    const onFrame = (time: number) => {
      if (done) return;
      if (previous !== undefined && time - previous <= DRAWING_FRAME_GAP_MS) return finish(true);
      previous = time;
      frames(onFrame);
    };
    frames(onFrame);
  });
}
