import WebSocket from 'ws';

/**
 * Sends text frames with a deadline each (DESIGN section 3: 5 s). A peer that has not taken a frame
 * by then is stuck; `onStuck` fires once and the owner drops the connection. Tracks bytes not yet
 * written so the producer (the server's stdout) can be paused instead of buffering without bound.
 */
export class DeadlineSender {
  private pendingBytes = 0;
  private stuck = false;
  private corked = false;
  private lowListeners: Array<() => void> = [];

  constructor(
    private readonly ws: WebSocket,
    private readonly deadlineMs: number,
    private readonly onStuck: () => void,
    private readonly lowWatermark: number,
  ) {}

  get pending(): number {
    return this.pendingBytes;
  }

  /** Resolves true once the frame reached the socket, false when it could not (closed, error, deadline). */
  send(text: string | Uint8Array): Promise<boolean> {
    if (this.stuck || this.ws.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    this.corkBurst();
    const bytes = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    this.pendingBytes += bytes;
    return new Promise((resolve) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        this.markStuck();
        resolve(false);
      }, this.deadlineMs);
      try {
        const done = (err?: Error) => {
          clearTimeout(timer);
          this.pendingBytes -= bytes;
          if (this.pendingBytes <= this.lowWatermark) this.notifyLow();
          if (settled) return;
          settled = true;
          resolve(!err);
        };
        // Bytes go out as a text frame: the caller passes only valid UTF-8 (a relayed body).
        if (typeof text === 'string') this.ws.send(text, done);
        else this.ws.send(text, { binary: false }, done);
      } catch {
        clearTimeout(timer);
        this.pendingBytes -= bytes;
        settled = true;
        resolve(false);
      }
    });
  }

  /**
   * Holds the socket's TCP writes until the current run of synchronous work ends: the messages of
   * one stdout chunk then leave in one write instead of a system call each. ws corks per frame;
   * this is the outer cork, released on the next tick.
   */
  private corkBurst(): void {
    if (this.corked) return;
    const socket = (this.ws as unknown as { _socket?: { cork?(): void; uncork?(): void } })._socket;
    if (!socket?.cork || !socket.uncork) return;
    this.corked = true;
    socket.cork();
    process.nextTick(() => {
      this.corked = false;
      socket.uncork?.();
    });
  }

  /** Calls `listener` once the unwritten bytes fall to the low watermark. */
  onceLow(listener: () => void): void {
    if (this.pendingBytes <= this.lowWatermark) listener();
    else this.lowListeners.push(listener);
  }

  private notifyLow(): void {
    const listeners = this.lowListeners;
    this.lowListeners = [];
    for (const l of listeners) l();
  }

  private markStuck(): void {
    if (this.stuck) return;
    this.stuck = true;
    this.onStuck();
  }
}
