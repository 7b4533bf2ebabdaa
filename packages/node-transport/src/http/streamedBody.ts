import type { IncomingMessage } from 'node:http';

/** A request body read chunk by chunk, and a signal for a client that hangs up before it ends. */
export interface StreamedBody {
  /** The chunks; stopping early leaves the request open, so the rest can be drained and answered. */
  body: AsyncIterable<Uint8Array>;
  /**
   * Aborted when the connection closes before the body was complete, also while no chunk is being
   * awaited (the iterator alone would notice only on its next read, or never for a request that
   * closed before it was first read).
   */
  cutOff: AbortSignal;
  /** Stops watching for the hang-up (call once the body was used). */
  dispose(): void;
}

export function streamedBody(req: IncomingMessage): StreamedBody {
  const body = req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
  const hangUp = new AbortController();
  const onClose = () => {
    if (!req.complete) hangUp.abort();
  };
  if (req.destroyed) onClose();
  req.once('close', onClose);
  return { body, cutOff: hangUp.signal, dispose: () => req.off('close', onClose) };
}
