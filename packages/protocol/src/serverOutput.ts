/**
 * What a language server says besides answers (docs/architecture.md section 3, "Server output"):
 * `window/logMessage`, `$/logTrace` and its stderr. The broker keeps the recent lines with the
 * lease, bounded, so a tab that reattaches sees them; live lines reach the attached tab as
 * `server_output` frames. agentctl hands the server's stderr to the backend as `server_stderr`.
 */
import { isRecord } from './records.js';

/** The `trace` a client asks of a server (initialize `trace`, `$/setTrace`). */
export const TRACE_LEVELS = ['off', 'messages', 'verbose'] as const;
export type TraceLevel = (typeof TRACE_LEVELS)[number];
export const DEFAULT_TRACE_LEVEL: TraceLevel = 'off';

export function isTraceLevel(value: unknown): value is TraceLevel {
  return typeof value === 'string' && (TRACE_LEVELS as readonly string[]).includes(value);
}

export type ServerOutputSource = 'log' | 'trace' | 'stderr';
/** LSP's MessageType by name; `trace` and `stderr` lines carry none. */
export type ServerOutputLevel = 'error' | 'warning' | 'info' | 'log' | 'debug';

export interface ServerOutputLine {
  /** Increases by one per line over the lease's life: a tab merges what it has with what it is sent. */
  seq: number;
  /** Epoch ms when the broker received it. */
  at: number;
  source: ServerOutputSource;
  level?: ServerOutputLevel;
  text: string;
}

/** backend -> browser: lines as they come (one frame per arrival). */
export interface ServerOutputFrame {
  status: 'server_output';
  lines: ServerOutputLine[];
}

/** agentctl -> backend: complete stderr lines of the running server, in order. */
export interface ServerStderrFrame {
  status: 'server_stderr';
  lines: string[];
}

/** Lines the broker keeps per lease; the oldest go first. */
export const MAX_SERVER_OUTPUT_LINES = 2_000;
/** Bytes (UTF-16 code units, counted as such) the kept lines may hold together: well inside the 4 MiB of retained state. */
export const MAX_SERVER_OUTPUT_BYTES = 256 * 1024;
/** One line longer than this is cut (with an ellipsis): a megabyte trace never evicts everything else. */
export const MAX_SERVER_OUTPUT_LINE_CHARS = 8 * 1024;
/** stderr lines agentctl puts in one `server_stderr` frame at most. */
export const MAX_STDERR_LINES_PER_FRAME = 64;

const LEVEL_OF_MESSAGE_TYPE: Record<number, ServerOutputLevel> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'log', 5: 'debug' };

export function messageLevel(type: unknown): ServerOutputLevel {
  return (typeof type === 'number' && LEVEL_OF_MESSAGE_TYPE[type]) || 'log';
}

export function boundedOutputText(text: string): string {
  return text.length > MAX_SERVER_OUTPUT_LINE_CHARS ? `${text.slice(0, MAX_SERVER_OUTPUT_LINE_CHARS)}…` : text;
}

/**
 * The line a `window/logMessage` or `$/logTrace` notification becomes, or undefined for any other
 * method or a shape that carries no text (dropped, never shown as "undefined").
 */
export function outputLineOf(method: string, params: unknown): Omit<ServerOutputLine, 'seq' | 'at'> | undefined {
  if (!isRecord(params)) return undefined;
  if (method === 'window/logMessage' && typeof params.message === 'string') {
    return { source: 'log', level: messageLevel(params.type), text: boundedOutputText(params.message) };
  }
  if (method === '$/logTrace' && typeof params.message === 'string') {
    const verbose = typeof params.verbose === 'string' && params.verbose !== '' ? `\n${params.verbose}` : '';
    return { source: 'trace', text: boundedOutputText(params.message + verbose) };
  }
  return undefined;
}

/** Lines of a `server_output` frame (or a ready frame's `output`) that have the right shape. */
export function outputLinesOf(value: unknown): ServerOutputLine[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (l): l is ServerOutputLine =>
      isRecord(l) &&
      typeof l.seq === 'number' &&
      typeof l.at === 'number' &&
      typeof l.text === 'string' &&
      (l.source === 'log' || l.source === 'trace' || l.source === 'stderr'),
  );
}
