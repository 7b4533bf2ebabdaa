import { renameSync, statSync } from 'node:fs';
import pino, { type DestinationStream } from 'pino';
import { DEFAULT_LOG_MAX_BYTES } from './rotatingFile.js';

type SonicBoomStream = ReturnType<typeof pino.destination>;
import { boundFields, type LogFields } from './fields.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Structured logs: one JSON object a line, `{"level","time","event",...fields}`. The event name is
 * from the app's closed set (`E`), so logs can be queried and alerted on.
 */
export interface Logger<E extends string = string> {
  log(level: LogLevel, event: E, fields?: LogFields): void;
  debug(event: E, fields?: LogFields): void;
  info(event: E, fields?: LogFields): void;
  warn(event: E, fields?: LogFields): void;
  error(event: E, fields?: LogFields): void;
}

/** A logger that owns its output: flush it where a reader looks, close it when the app stops. */
export interface OwnedLogger<E extends string = string> extends Logger<E> {
  /** Resolves once every line logged so far is written. */
  flush(): Promise<void>;
  /** Writes every pending line now (process exit, fatal paths). */
  flushSync(): void;
  /** Flushes and releases the outputs; later lines are dropped. */
  close(): Promise<void>;
}

/**
 * Where lines go: a file (appended; past `maxBytes`, default DEFAULT_LOG_MAX_BYTES, it moves to
 * `<file>.1` and starts anew), stderr, or a function (tests, in-memory readers; synchronous).
 */
export type LogTarget = { file: string; maxBytes?: number } | { stderr: true } | { lines: (line: string) => void };

export interface LoggerOptions {
  targets: readonly LogTarget[];
  /** Lines below this level are not written; default info. */
  level?: LogLevel;
  /** Clock of the `time` field (tests pin it). */
  now?: () => Date;
}

interface Output {
  stream: DestinationStream;
  flush(): Promise<void>;
  flushSync(): void;
  close(): Promise<void>;
}

/**
 * Files and stderr are written asynchronously (pino's sonic-boom, no write call per line on the
 * relay's path) and flushed synchronously at process exit. A failing output (disk full, a parent
 * that closed our stderr) never takes the process down: its lines are dropped.
 */
function outputFor(target: LogTarget): Output {
  if ('lines' in target) {
    const stream = { write: (line: string) => target.lines(line) };
    return { stream, flush: async () => undefined, flushSync: () => undefined, close: async () => undefined };
  }
  // A log file is private (0600), the rotated-in one as much as the first: logs name paths and hosts.
  const boom = pino.destination({ dest: 'file' in target ? target.file : 2, sync: false, append: true, ...('file' in target ? { mode: 0o600 } : {}) });
  boom.on('error', () => undefined);
  const settled = (fn: (done: () => void) => void): Promise<void> =>
    new Promise((resolve) => {
      try {
        fn(resolve);
      } catch {
        resolve();
      }
    });
  return {
    stream: 'file' in target ? rotating(boom, target.file, target.maxBytes ?? DEFAULT_LOG_MAX_BYTES) : boom,
    flush: () => drained(boom),
    flushSync: () => {
      try {
        boom.flushSync();
      } catch {
        // Not open yet, or already gone: nothing can be written any more.
      }
    },
    close: () =>
      settled((done) => {
        boom.once('close', done);
        boom.end();
      }),
  };
}

/**
 * The file target as pino's destination: a line that would take the file past `maxBytes` first
 * moves it to `<file>.1` and has sonic-boom reopen the path (its documented way to rotate; what it
 * still had queued is written to the moved file first).
 */
function rotating(boom: SonicBoomStream, file: string, maxBytes: number): DestinationStream {
  let bytes = 0;
  try {
    bytes = statSync(file).size;
  } catch {
    // A new file.
  }
  return {
    write(line: string) {
      const length = Buffer.byteLength(line);
      // Not while sonic-boom is still opening the path: a rename then would move nothing and its
      // queued lines would all land in one file. The bound holds from the next line on.
      if (bytes > 0 && bytes + length > maxBytes && !(boom as unknown as { _opening?: boolean })._opening) {
        try {
          renameSync(file, `${file}.1`);
          boom.reopen();
        } catch {
          // Not movable: keep appending where we are.
        }
        bytes = 0;
      }
      bytes += length;
      boom.write(line);
    },
  };
}

/** What sonic-boom keeps private but a flush must know: whether bytes are still on their way. */
interface BoomState {
  _writing?: boolean;
  _len?: number;
  destroyed?: boolean;
}

/**
 * Resolves once everything handed to `boom` so far reached its file descriptor. sonic-boom's own
 * flush() answers at once when it does not batch (minLength 0), so its state is read instead.
 */
function drained(boom: SonicBoomStream): Promise<void> {
  const state = boom as unknown as BoomState;
  return new Promise((resolve) => {
    const check = (): void => {
      if (state.destroyed || (!state._writing && !state._len)) return resolve();
      const next = (): void => {
        for (const name of ['ready', 'drain', 'close', 'error']) boom.off(name, next);
        check();
      };
      for (const name of ['ready', 'drain', 'close', 'error']) boom.once(name, next);
    };
    check();
  });
}

export function createLogger<E extends string>(options: LoggerOptions): OwnedLogger<E> {
  const outputs = options.targets.map(outputFor);
  const now = options.now ?? (() => new Date());
  const destination =
    outputs.length === 1 ? (outputs[0] as Output).stream : pino.multistream(outputs.map((o) => ({ stream: o.stream, level: 'debug' as const })));
  const base = pino(
    {
      level: options.level ?? 'info',
      base: null,
      timestamp: () => `,"time":"${now().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    outputs.length === 0 ? { write: () => undefined } : destination,
  );
  let closed = false;
  const log = (level: LogLevel, event: E, fields?: LogFields): void => {
    if (closed || !base.isLevelEnabled(level)) return;
    try {
      base[level]({ event, ...boundFields(fields) });
    } catch {
      // Logging must never take the process down.
    }
  };
  return {
    log,
    debug: (event, fields) => log('debug', event, fields),
    info: (event, fields) => log('info', event, fields),
    warn: (event, fields) => log('warn', event, fields),
    error: (event, fields) => log('error', event, fields),
    flush: async () => {
      await Promise.all(outputs.map((o) => o.flush()));
    },
    flushSync: () => {
      for (const o of outputs) o.flushSync();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all(outputs.map((o) => o.close()));
    },
  };
}

/** A logger that writes nothing; for tests that do not assert on logs. */
export function silentLogger<E extends string = string>(): OwnedLogger<E> {
  return createLogger<E>({ targets: [] });
}
