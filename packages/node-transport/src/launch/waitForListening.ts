import { type Clock, type Disposable, after, systemClock } from '@kandev/kit';
import { MAX_LISTENING_LINE, parseListeningLine } from '@kandev/protocol';

export type ListeningOutcome = { kind: 'listening'; port: number } | { kind: 'timeout' };

/** A wait for agentctl's listening line; disposing it stops the wait (its outcome then never settles). */
export interface ListeningWait extends Disposable {
  readonly outcome: Promise<ListeningOutcome>;
}

/**
 * Waits for agentctl's one `{"event":"listening","port":N}` line on its stdout (parsed by the
 * protocol's parser), for at most `timeoutMs` on `clock`. Other lines are skipped; a line longer
 * than any listening line is skipped without being held whole. From the moment the wait ends
 * (listening, timeout or dispose) stdout is drained and dropped, so a chatty agentctl never blocks
 * on a full pipe. The caller races the outcome against the process's own end (exit, container wait).
 */
export function waitForListening(stdout: NodeJS.ReadableStream, timeoutMs: number, clock: Clock = systemClock): ListeningWait {
  let partial = '';
  /** The current line already ran past MAX_LISTENING_LINE: it is skipped up to its newline. */
  let overlong = false;
  let settle: (outcome: ListeningOutcome) => void = () => undefined;
  const outcome = new Promise<ListeningOutcome>((resolve) => (settle = resolve));
  let ended = false;
  const onData = (chunk: Buffer | string): void => {
    let text = partial + chunk.toString();
    let newline = text.indexOf('\n');
    while (newline >= 0 && !ended) {
      const line = text.slice(0, newline).replace(/\r$/, '');
      text = text.slice(newline + 1);
      if (!overlong) {
        const port = parseListeningLine(line);
        if (port !== undefined) return end({ kind: 'listening', port });
      }
      overlong = false;
      newline = text.indexOf('\n');
    }
    if (text.length > MAX_LISTENING_LINE) {
      overlong = true;
      text = '';
    }
    partial = text;
  };
  const timer = after(clock, timeoutMs, () => end({ kind: 'timeout' }));
  const drain = (): void => undefined;
  function end(result?: ListeningOutcome): void {
    if (ended) return;
    ended = true;
    timer.dispose();
    partial = '';
    stdout.off('data', onData);
    // Same on every side (local process, container attach): keep reading, keep nothing.
    stdout.on('data', drain);
    stdout.resume();
    if (result) settle(result);
  }
  stdout.on('data', onData);
  return { outcome, dispose: () => end() };
}
