import { Emitter, type Event } from '@kandev/kit';
import { MAX_SERVER_OUTPUT_LINES, type ServerOutputLine } from '@kandev/protocol';

/**
 * One connection's Output lines as the page has them: what the lease kept (the ready frame's
 * `output`) merged with the lines sent since (`server_output`). Numbered by the lease, so a line
 * that arrives twice (in the ready frame and live) is shown once; a new lease starts afresh.
 */
export class OutputBuffer {
  private lines: readonly ServerOutputLine[] = [];
  private lease: string | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly maxLines = MAX_SERVER_OUTPUT_LINES) {}

  getSnapshot = (): readonly ServerOutputLine[] => this.lines;

  /** The lease the lines come from (the ready frame's): another one means another server, so the lines go. */
  useLease(lease: string): void {
    if (this.lease === lease) return;
    const had = this.lease !== undefined;
    this.lease = lease;
    if (had && this.lines.length > 0) {
      this.lines = [];
      this.changed.fire();
    }
  }

  merge(incoming: readonly ServerOutputLine[]): void {
    const last = this.lines.at(-1)?.seq ?? 0;
    const fresh = incoming.filter((l) => l.seq > last);
    if (fresh.length === 0) return;
    const next = [...this.lines, ...fresh];
    this.lines = next.length > this.maxLines ? next.slice(next.length - this.maxLines) : next;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The lines as a plain text log (copy, download): time, source, level, text. */
export function outputText(lines: readonly ServerOutputLine[]): string {
  return lines
    .map((l) => {
      const tag = l.source === 'log' ? (l.level ?? 'log') : l.source;
      return `[${new Date(l.at).toISOString()}] [${tag}] ${l.text}`;
    })
    .join('\n');
}
