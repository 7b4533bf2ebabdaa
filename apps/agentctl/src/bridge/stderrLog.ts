import type { Readable } from 'node:stream';
import type { LogFields, Logger } from '../base/log.js';

const MAX_LINE_CHARS = 1_000;

/**
 * Copies a server's stderr into agentctl's log, line by line, up to a byte budget per process
 * (then one `server_stderr_truncated` and silence). It never reaches the browser.
 */
export function logServerStderr(stderr: Readable, logger: Logger, fields: LogFields, budgetBytes: number): void {
  let used = 0;
  let partial = '';
  let truncated = false;
  const emit = (line: string) => {
    if (line.length === 0 || truncated) return;
    used += line.length;
    if (used > budgetBytes) {
      truncated = true;
      logger.log('warn', 'server_stderr_truncated', { ...fields, budgetBytes });
      return;
    }
    logger.log('info', 'server_stderr', { ...fields, line: line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line });
  };
  stderr.setEncoding('utf8');
  stderr.on('data', (chunk: string) => {
    if (truncated) return;
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    // A line without an end is cut, so one endless line cannot grow `partial` without bound.
    if (partial.length > MAX_LINE_CHARS) {
      emit(partial);
      partial = '';
    }
    for (const line of lines) emit(line.replace(/\r$/, ''));
  });
  stderr.on('end', () => emit(partial));
  stderr.on('error', () => {});
}
