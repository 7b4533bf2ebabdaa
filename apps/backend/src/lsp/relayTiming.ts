/** Reports how long one frame took in the backend, in milliseconds. */
export type FrameTimer = (ms: number) => void;

/**
 * Wraps a socket's frame handler so the time the frame spends in the backend is reported: parse,
 * lease broker and the hand-off to the other socket all run synchronously inside the handler, so
 * two clock reads bracket the relay's whole added latency, with nothing allocated per frame.
 * Without a timer the handler is returned as it is.
 */
export function timedFrames<T>(handler: (frame: T) => void, timer: FrameTimer | undefined): (frame: T) => void {
  if (!timer) return handler;
  return (frame) => {
    const start = performance.now();
    try {
      handler(frame);
    } finally {
      timer(performance.now() - start);
    }
  };
}
