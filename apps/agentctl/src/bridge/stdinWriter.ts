import type { Writable } from 'node:stream';

/**
 * Writes frames to a server's stdin. When stdin stops taking data the writer reports backpressure
 * (so the WebSocket is paused instead of buffering) and arms the cutoff (DESIGN: 30 s): a server
 * that does not drain by then is treated as hung.
 */
export class StdinWriter {
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly stdin: Writable,
    private readonly cutoffMs: number,
    private readonly onStuck: () => void,
    private readonly onBackpressure: (blocked: boolean) => void,
  ) {
    // EPIPE after the server exited: the exit handler reports that, not this stream.
    stdin.on('error', () => {});
  }

  write(bytes: Uint8Array): void {
    if (this.closed || this.stdin.destroyed) return;
    if (this.stdin.write(bytes) || this.timer !== undefined) return;
    this.onBackpressure(true);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.onStuck();
    }, this.cutoffMs);
    this.stdin.once('drain', () => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      if (!this.closed) this.onBackpressure(false);
    });
  }

  dispose(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
