import type { Writable } from 'node:stream';
import { after, systemClock, type Clock, type Disposable } from '@kandev/kit';

/**
 * Writes frames to a server's stdin. When stdin stops taking data the writer reports backpressure
 * (so the WebSocket is paused instead of buffering) and arms the cutoff (docs/architecture.md section 3: 30 s): a server
 * that does not drain by then is treated as hung.
 */
export class StdinWriter {
  private timer: Disposable | undefined;
  private closed = false;

  constructor(
    private readonly stdin: Writable,
    private readonly cutoffMs: number,
    private readonly onStuck: () => void,
    private readonly onBackpressure: (blocked: boolean) => void,
    private readonly clock: Clock = systemClock,
  ) {
    // EPIPE after the server exited: the exit handler reports that, not this stream.
    stdin.on('error', () => {});
  }

  write(bytes: Uint8Array): void {
    if (this.closed || this.stdin.destroyed) return;
    this.afterWrite(this.stdin.write(bytes));
  }

  /**
   * One frame as its header and its body, without joining them (a relayed body is not copied):
   * corked, so both leave in one system call.
   */
  writeFrame(header: Uint8Array, body: Uint8Array): void {
    if (this.closed || this.stdin.destroyed) return;
    this.stdin.cork();
    this.stdin.write(header);
    const taken = this.stdin.write(body);
    this.stdin.uncork();
    this.afterWrite(taken);
  }

  private afterWrite(taken: boolean): void {
    if (taken || this.timer !== undefined) return;
    this.onBackpressure(true);
    this.timer = after(this.clock, this.cutoffMs, () => {
      this.timer = undefined;
      if (!this.closed) this.onStuck();
    });
    this.stdin.once('drain', () => {
      this.timer?.dispose();
      this.timer = undefined;
      if (!this.closed) this.onBackpressure(false);
    });
  }

  dispose(): void {
    this.closed = true;
    this.timer?.dispose();
    this.timer = undefined;
  }
}
