/**
 * The launched server's stderr, line by line, to the backend as `server_stderr` frames: the lines
 * of the lease's Output view (docs/architecture.md section 3, "Server output"). Lines are batched
 * per tick (at most MAX_STDERR_LINES_PER_FRAME a frame), held until the stream said `ready` (the
 * first frame the backend reads as the server's), and dropped while the socket is full: stderr
 * is a diagnostic, never a reason to hold the server's stdout back. A dropped run is said once.
 */
import { boundedOutputText, MAX_SERVER_OUTPUT_LINE_CHARS, MAX_STDERR_LINES_PER_FRAME, type ServerStderrFrame } from '@kandev/protocol';

export interface StderrSink {
  readonly isClosed: boolean;
  readonly isFull: boolean;
  send(text: string): void;
}

/** Lines held before `ready` (a server that talks a lot while starting keeps its last ones). */
const MAX_HELD_LINES = 256;

export class StderrRelay {
  private partial = '';
  private pending: string[] = [];
  private dropped = 0;
  private flushScheduled = false;
  private open = false;
  private ended = false;

  constructor(private readonly sink: () => StderrSink) {}

  /** A chunk of the server's stderr as it came. */
  push(chunk: string): void {
    if (this.ended) return;
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop() ?? '';
    // A line without an end is cut, so one endless line cannot grow `partial` without bound.
    if (this.partial.length > MAX_SERVER_OUTPUT_LINE_CHARS) {
      lines.push(this.partial);
      this.partial = '';
    }
    for (const line of lines) this.add(line.replace(/\r$/, ''));
  }

  /** The stream said `ready`: held lines go now, later ones as they come. */
  start(): void {
    this.open = true;
    this.schedule();
  }

  /** The server's stderr ended: its unfinished last line goes too. */
  end(): void {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
  }

  /** The stream is over: nothing more is sent. */
  stop(): void {
    this.ended = true;
    this.pending = [];
  }

  private add(line: string): void {
    if (line === '') return;
    this.pending.push(boundedOutputText(line));
    if (!this.open && this.pending.length > MAX_HELD_LINES) {
      this.pending.shift();
      this.dropped++;
    }
    this.schedule();
  }

  private schedule(): void {
    if (!this.open || this.flushScheduled || this.pending.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.ended) return;
    const sink = this.sink();
    if (sink.isClosed) return;
    while (this.pending.length > 0) {
      if (sink.isFull) {
        this.dropped += this.pending.length;
        this.pending = [];
        return;
      }
      const lines = this.pending.splice(0, MAX_STDERR_LINES_PER_FRAME);
      if (this.dropped > 0) {
        lines.unshift(`[${this.dropped} stderr lines dropped]`);
        this.dropped = 0;
      }
      const frame: ServerStderrFrame = { status: 'server_stderr', lines };
      sink.send(JSON.stringify(frame));
    }
  }
}
