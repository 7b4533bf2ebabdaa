/** stderr lines of a lease's server (agentctl's `server_stderr` frames) into its Output. */
import type { Lease } from './lease.js';
import type { Outbox } from './outbox.js';
import { outputFrame } from './serverOutput.js';
import { MAX_STDERR_LINES_PER_FRAME, type ServerOutputLine } from '@kandev/protocol';

/** Keeps the lines (anything but strings is ignored) and sends them on to the attached tab in one frame. */
export function keepStderr(lease: Lease, lines: unknown, out: Outbox): void {
  if (!Array.isArray(lines)) return;
  const kept: ServerOutputLine[] = [];
  for (const text of lines.slice(0, MAX_STDERR_LINES_PER_FRAME)) {
    if (typeof text === 'string' && text !== '') kept.push(lease.output.append({ source: 'stderr', text }, out.now));
  }
  const attachment = lease.attachment;
  if (attachment && kept.length > 0) out.toBrowser(attachment.id, outputFrame(kept));
}
