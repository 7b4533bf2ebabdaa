/**
 * The lease's Output: `window/logMessage`, `$/logTrace` and stderr lines of its server, kept for a
 * tab that attaches later (docs/architecture.md section 3, "Server output"). Bounded by lines and
 * by characters; the oldest go first. It outlives a crash restart, so the lines that explain the
 * crash are still there, and goes with the lease.
 */
import { boundedOutputText, MAX_SERVER_OUTPUT_BYTES, MAX_SERVER_OUTPUT_LINES, type ServerOutputFrame, type ServerOutputLine } from '@kandev/protocol';

/** A line's share of the budget: its text and a fixed allowance for the other members. */
function lineCost(line: ServerOutputLine): number {
  return line.text.length + 64;
}

export class ServerOutputLog {
  private readonly lines: ServerOutputLine[] = [];
  private head = 0;
  private bytes = 0;
  private nextSeq = 1;

  constructor(
    private readonly maxLines = MAX_SERVER_OUTPUT_LINES,
    private readonly maxBytes = MAX_SERVER_OUTPUT_BYTES,
  ) {}

  /** Records one line received at `now` and returns it as kept (text bounded, seq assigned). */
  append(line: Omit<ServerOutputLine, 'seq' | 'at'>, now: number): ServerOutputLine {
    const kept: ServerOutputLine = { seq: this.nextSeq++, at: now, source: line.source, text: boundedOutputText(line.text) };
    if (line.level) kept.level = line.level;
    this.lines.push(kept);
    this.bytes += lineCost(kept);
    while (this.size > this.maxLines || (this.bytes > this.maxBytes && this.size > 1)) {
      const dropped = this.lines[this.head++] as ServerOutputLine;
      this.bytes -= lineCost(dropped);
    }
    // Compacts now and then so dropped lines do not pin memory.
    if (this.head > 1_024 && this.head * 2 > this.lines.length) {
      this.lines.splice(0, this.head);
      this.head = 0;
    }
    return kept;
  }

  get size(): number {
    return this.lines.length - this.head;
  }

  /** What the kept lines weigh against the lease's retained-state bound. */
  get retainedBytes(): number {
    return this.bytes;
  }

  /** The kept lines, oldest first. */
  recent(): ServerOutputLine[] {
    return this.lines.slice(this.head);
  }
}

export function outputFrame(lines: ServerOutputLine[]): ServerOutputFrame {
  return { status: 'server_output', lines };
}
