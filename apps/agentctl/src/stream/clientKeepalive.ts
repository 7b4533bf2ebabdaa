import type WebSocket from 'ws';

export interface KeepaliveTiming {
  intervalMs: number;
  maxMisses: number;
}

/**
 * Pings the stream's client (the backend) on a fixed interval. Anything heard from it, a pong or
 * a frame, proves it alive; `maxMisses` ticks in a row without a sound mean it is gone without a
 * close (a backend that hung or lost its network): `onDead` runs once, so the server is reaped
 * instead of running for nobody. A socket agentctl paused itself (stdin backpressure) cannot hear
 * pongs, so it is never judged while paused. Returns the disposer.
 */
export function keepClientAlive(ws: WebSocket, timing: KeepaliveTiming, onDead: () => void): () => void {
  let answered = true;
  let misses = 0;
  const heard = (): void => {
    answered = true;
    misses = 0;
  };
  const timer = setInterval(() => {
    if (ws.isPaused) return heard();
    if (!answered && ++misses >= timing.maxMisses) {
      dispose();
      onDead();
      return;
    }
    answered = false;
    try {
      ws.ping();
    } catch {
      // Closing already: the close event ends the stream.
    }
  }, timing.intervalMs);
  timer.unref();
  ws.on('pong', heard);
  ws.on('message', heard);
  function dispose(): void {
    clearInterval(timer);
    ws.off('pong', heard);
    ws.off('message', heard);
  }
  return dispose;
}
