import { createWriteStream, openSync, renameSync, statSync } from 'node:fs';

/** Per log file: past this size it moves to `<file>.1` (replacing the one there) and starts anew. */
export const DEFAULT_LOG_MAX_BYTES = 10 * 1024 * 1024;

export interface RotatingFileOptions {
  /** Default DEFAULT_LOG_MAX_BYTES; at most about twice this stays on disk (the file and `.1`). */
  maxBytes?: number;
  /** File mode of a new file; default 0o600 (logs carry task detail). */
  mode?: number;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

type Sink = Pick<ReturnType<typeof createWriteStream>, 'write' | 'end' | 'once'>;

/** Where lines go when the file cannot be opened (disk full, folder removed): nowhere, quietly. */
const DROP: Sink = { write: () => true, end: () => DROP as never, once: () => DROP as never };

/**
 * An appended log file that never grows without bound, for a process meant to be left running:
 * writes are asynchronous (a write stream, no system call per line on anyone's hot path), and a
 * write that would take the file past `maxBytes` first moves it to `<file>.1`. Renaming keeps the
 * old stream's descriptor on the moved file, so what it still had queued lands there, in order.
 * A file that cannot be written (disk full, folder removed) drops lines and never throws.
 */
export class RotatingFile {
  private stream: Sink;
  private bytes: number;
  private readonly maxBytes: number;
  private readonly mode: number;
  private ended = false;

  constructor(
    readonly path: string,
    options: RotatingFileOptions = {},
  ) {
    this.maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
    this.mode = options.mode ?? 0o600;
    this.bytes = sizeOf(path);
    this.stream = this.open();
  }

  /**
   * Opened synchronously (once per file, not per line): a rotation right after it must find the
   * descriptor open, or the old stream would open the new path and the bound would not hold.
   */
  private open(): Sink {
    let fd: number;
    try {
      fd = openSync(this.path, 'a', this.mode);
    } catch {
      return DROP;
    }
    const stream = createWriteStream(this.path, { fd });
    stream.on('error', () => undefined);
    return stream;
  }

  write(chunk: string | Uint8Array): void {
    if (this.ended) return;
    const length = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (this.bytes > 0 && this.bytes + length > this.maxBytes) this.rotate();
    this.bytes += length;
    this.stream.write(chunk);
  }

  private rotate(): void {
    const previous = this.stream;
    previous.end();
    try {
      renameSync(this.path, `${this.path}.1`);
    } catch {
      // Gone or not movable: the new stream appends to whatever is at the path.
    }
    this.stream = this.open();
    this.bytes = 0;
  }

  /** Ends the file; resolves once what was written reached it. */
  end(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    const stream = this.stream;
    if (stream === DROP) return Promise.resolve();
    return new Promise((resolve) => {
      stream.once('close', () => resolve());
      stream.once('error', () => resolve());
      stream.end();
    });
  }
}
