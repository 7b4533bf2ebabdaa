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
  /**
   * When each frame not yet written was handed over, oldest first (from `sentHead`): frames are
   * written in order, so one timer watching the oldest gives every frame its own deadline without
   * a timer (or a promise) per frame.
   */
  private readonly sentAt: number[] = [];
  private sentHead = 0;
  private deadline: NodeJS.Timeout | undefined;
  /** Callers of `send` still waiting for their frame's outcome; a stuck peer answers them all. */
  private readonly waiting = new Set<(sent: boolean) => void>();

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
    return new Promise((resolve) => this.write(text, resolve));
  }

  /**
   * The same write for a relayed message nobody waits on (every server body): no promise. A frame
   * that misses its deadline still makes the peer stuck.
   */
  relay(body: string | Uint8Array): void {
    if (this.stuck || this.ws.readyState !== WebSocket.OPEN) return;
    this.write(body, undefined);
  }

  private write(data: string | Uint8Array, resolve: ((sent: boolean) => void) | undefined): void {
    this.corkBurst();
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.pendingBytes += bytes;
    this.sentAt.push(Date.now());
    this.armDeadline();
    if (resolve) this.waiting.add(resolve);
    const done = (err?: Error): void => {
      this.pendingBytes -= bytes;
      this.written();
      if (this.pendingBytes <= this.lowWatermark) this.notifyLow();
      if (resolve && this.waiting.delete(resolve)) resolve(!err);
    };
    try {
      // Bytes go out as a text frame: the caller passes only valid UTF-8 (a relayed body).
      if (typeof data === 'string') this.ws.send(data, done);
      else this.ws.send(data, { binary: false }, done);
    } catch {
      this.pendingBytes -= bytes;
      this.sentAt.pop();
      if (resolve && this.waiting.delete(resolve)) resolve(false);
    }
  }

  /** The oldest frame was written: its send time leaves the queue. */
  private written(): void {
    this.sentHead++;
    if (this.sentHead === this.sentAt.length) {
      this.sentAt.length = 0;
      this.sentHead = 0;
    } else if (this.sentHead >= 1024 && this.sentHead * 2 >= this.sentAt.length) {
      this.sentAt.splice(0, this.sentHead);
      this.sentHead = 0;
    }
  }

  private armDeadline(): void {
    if (this.deadline !== undefined) return;
    this.deadline = setTimeout(() => this.checkDeadline(), this.deadlineMs);
    // It never keeps agentctl alive: pending writes keep their socket open anyway.
    this.deadline.unref?.();
  }

  /** Runs at the oldest frame's deadline (or later): stuck if that frame is still not written. */
  private checkDeadline(): void {
    this.deadline = undefined;
    if (this.stuck || this.sentHead === this.sentAt.length) return;
    const left = (this.sentAt[this.sentHead] as number) + this.deadlineMs - Date.now();
    if (left > 0) {
      this.deadline = setTimeout(() => this.checkDeadline(), left);
      this.deadline.unref?.();
      return;
    }
    this.markStuck();
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
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const resolve of waiting) resolve(false);
    this.onStuck();
  }
}
