import { StringDecoder } from 'node:string_decoder';
import { MAX_INSTALL_ERROR_BYTES } from '@kandev/protocol';

/** A progress line longer than this is cut: an installer printing a minified bundle must not flood a frame. */
export const MAX_PROGRESS_LINE_CHARS = 512;
/** Progress lines forwarded per install; the rest are still kept in the tail for a failure report. */
export const MAX_PROGRESS_LINES = 400;

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07/g;

/** Credentials an installer may echo (a registry URL with user:password, an npm auth token). */
function redact(line: string): string {
  return line.replace(/(\/\/)[^\s/@:]+:[^\s/@]+@/g, '$1***@').replace(/(_authToken|_auth|_password)(\s*[=:]\s*)\S+/gi, '$1$2***');
}

function clean(raw: string): string {
  // A progress bar redraws with \r: only what the terminal would finally show matters.
  const lastFrame = raw.slice(raw.lastIndexOf('\r') + 1);
  return redact(lastFrame.replace(ANSI, '')).trimEnd();
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Cuts to at most maxBytes of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8').subarray(0, Math.max(0, maxBytes));
  return new StringDecoder('utf8').write(bytes); // drops a trailing partial character
}

/**
 * Installer output, bounded twice: lines forwarded as progress are cut and counted, and only the
 * last MAX_INSTALL_ERROR_BYTES of lines are kept, because the actionable part of a failed npm or go
 * run (the error and its hint) is at the end.
 */
export class OutputTail {
  private readonly lines: string[] = [];
  private bytes = 0;
  private forwarded = 0;
  private readonly partial = new Map<string, { decoder: StringDecoder; text: string }>();

  constructor(
    private readonly onLine?: (line: string) => void,
    private readonly maxTailBytes = MAX_INSTALL_ERROR_BYTES,
  ) {}

  /** Bytes from one of the installer's streams; lines may arrive split across chunks. */
  push(stream: string, chunk: Buffer): void {
    let state = this.partial.get(stream);
    if (!state) {
      state = { decoder: new StringDecoder('utf8'), text: '' };
      this.partial.set(stream, state);
    }
    state.text += state.decoder.write(chunk);
    let newline: number;
    while ((newline = state.text.indexOf('\n')) >= 0) {
      this.line(state.text.slice(0, newline));
      state.text = state.text.slice(newline + 1);
    }
    // A "line" that never ends is still bounded: emit what we have and go on.
    if (state.text.length > MAX_PROGRESS_LINE_CHARS * 4) {
      this.line(state.text);
      state.text = '';
    }
  }

  /** Our own progress line ("installing pyright with npm"), shown and kept like the installer's. */
  note(line: string): void {
    this.line(line);
  }

  /** Ends every stream's pending partial line. */
  flush(): void {
    for (const state of this.partial.values()) {
      const rest = state.text + state.decoder.end();
      state.text = '';
      if (rest !== '') this.line(rest);
    }
  }

  tail(): string[] {
    return [...this.lines];
  }

  private line(raw: string): void {
    const text = clean(raw);
    if (text === '') return;
    const shown = text.length > MAX_PROGRESS_LINE_CHARS ? `${text.slice(0, MAX_PROGRESS_LINE_CHARS)}...` : text;
    if (this.onLine && this.forwarded < MAX_PROGRESS_LINES) {
      this.forwarded++;
      this.onLine(this.forwarded === MAX_PROGRESS_LINES ? '(further installer output is not shown)' : shown);
    }
    const kept = truncateUtf8(text, this.maxTailBytes);
    this.lines.push(kept);
    this.bytes += utf8Bytes(kept) + 1;
    while (this.bytes > this.maxTailBytes && this.lines.length > 1) {
      this.bytes -= utf8Bytes(this.lines.shift() as string) + 1;
    }
  }
}

/**
 * The install_failed detail: first what failed and what to do about it, then the newest installer
 * lines that still fit. Never more than MAX_INSTALL_ERROR_BYTES of UTF-8.
 */
export function failureText(summary: string, tail: readonly string[] = [], maxBytes = MAX_INSTALL_ERROR_BYTES): string {
  const head = truncateUtf8(summary, maxBytes);
  let budget = maxBytes - utf8Bytes(head);
  const kept: string[] = [];
  for (let i = tail.length - 1; i >= 0; i--) {
    const line = tail[i] as string;
    const cost = utf8Bytes(line) + 1; // with its newline
    if (cost > budget) break;
    kept.unshift(line);
    budget -= cost;
  }
  return kept.length === 0 ? head : `${head}\n${kept.join('\n')}`;
}
