import { isUtf8 } from 'node:buffer';
import {
  BadInputCloseCode,
  encodeLspFrame,
  FramingError,
  isWatchedFilesControl,
  type WatchedFilesControl,
  LspFrameDecoder,
  lspFrameHeader,
  parseFrame,
  readEnvelope,
  ReservedCloseCode,
  scanJsonNesting,
  tooDeepOutcome,
  type RpcEnvelope,
} from '@kandev/protocol';
import { after, DisposableStore, systemClock, type Clock, type Disposable } from '@kandev/kit';
import type { FrameSocket, IncomingFrame } from '@kandev/node-transport';
import type { ExitInfo, LaunchedServer } from '../process/launch.js';
import { StdinWriter } from './stdinWriter.js';

/** Decodes a server's invalid UTF-8 with replacement characters (one decoder, not one per body). */
const replacingDecoder = new TextDecoder('utf-8');

export type BadInputCode = (typeof BadInputCloseCode)[keyof typeof BadInputCloseCode];

/** Why a bridge ended; the stream maps each to a close code. Reported exactly once. */
export type BridgeEnd =
  | { kind: 'client_closed'; code: number }
  | { kind: 'client_bad_frame'; closeCode: BadInputCode; detail: string }
  | { kind: 'server_exited'; exit: ExitInfo }
  | { kind: 'server_bad_output'; closeCode: BadInputCode; detail: string }
  | { kind: 'stdin_stuck' }
  /** The backend sent `release-stream` (after `exit`): end the server, reap, report `reaped`. */
  | { kind: 'release_requested' };

export interface BridgeOptions {
  stdinCutoffMs: number;
  /** How long to keep forwarding stdout after the server exited (its last words), at most. */
  exitFlushMs: number;
  /** A client message refused for its nesting (answered, replaced or dropped); for the log. */
  onRefused?: (kind: 'request' | 'response' | 'notification') => void;
  /** The backend handed over the server's `workspace/didChangeWatchedFiles` watchers (a `watched-files` control). */
  onWatchedFiles?: (watchers: unknown[]) => void;
  /** The exit flush and stdin cutoff timers; default the system clock. */
  clock?: Clock;
  /** Sees every JSON-RPC message forwarded to the server (its envelope and text), for the stream's account. */
  observe?: (envelope: RpcEnvelope, text: string) => void;
  /** Rewrites the client's `initialize` request before the server reads it (the launcher's paths). */
  rewriteInitialize?: (text: string) => string;
}

export interface Bridge {
  /** Writes a message of agentctl's own (a JSON-RPC notification's text) to the server's stdin, whole. */
  notifyServer(body: string): void;
  dispose(): void;
  /**
   * The backend is gone but the server stays: the socket is let go and the server's stdout is no
   * longer read (it waits in the pipe, so backpressure holds the server, nothing is lost or
   * buffered here) until `rebind` hands over the next backend's socket. A server that exits
   * meanwhile still ends the bridge (`server_exited`).
   */
  park(): void;
  /** Bridges the parked server to a new socket; its held output flows from where it stopped. */
  rebind(next: FrameSocket): void;
  readonly parked: boolean;
}

function watchedFilesControl(text: string): WatchedFilesControl | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isWatchedFilesControl(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Maps a ws library error (raised while reading a client frame) to the standard close code. */
function wsErrorCode(err: Error): BadInputCode {
  return (err as Error & { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? BadInputCloseCode.MessageTooBig : BadInputCloseCode.InvalidPayload;
}

/**
 * One WebSocket (a FrameSocket: write deadline, byte watermarks) <-> one server's stdio. Client
 * text frames must each be one JSON-RPC 2.0 object (checked by a scan, not decoded) and are
 * forwarded byte for byte as LSP frames; the server's LSP frames are unframed (bounded) and their
 * bodies sent byte for byte as text frames. Backpressure
 * flows both ways instead of buffering without bound: the socket's high watermark pauses stdout,
 * a full stdin pauses reading the socket.
 */
export function startBridge(initialSocket: FrameSocket, server: LaunchedServer, options: BridgeOptions, onEnd: (end: BridgeEnd) => void): Bridge {
  let socket = initialSocket;
  let ended = false;
  let parked = false;
  let exitTimer: Disposable | undefined;
  const clock = options.clock ?? systemClock;
  const finish = (end: BridgeEnd) => {
    if (ended) return;
    ended = true;
    dispose();
    onEnd(end);
  };

  const stdin = new StdinWriter(
    server.child.stdin,
    options.stdinCutoffMs,
    () => finish({ kind: 'stdin_stuck' }),
    (blocked) => {
      if (blocked) socket.pause('backpressure');
      else socket.resume('backpressure');
    },
    clock,
  );

  const onMessage = (incoming: IncomingFrame) => {
    if (ended) return;
    if (!('text' in incoming)) {
      finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.InvalidPayload, detail: 'binary frame' });
      return;
    }
    // Relayed, not decoded: the bytes go to stdin as they came. The text is read once, by the
    // scanner, for the bounds (nesting) and the shape (one JSON-RPC 2.0 object); the backend, our
    // only client, sends only messages it decoded or built itself, so JSON.parse here would be a
    // second full decode of every message for nothing.
    let { bytes, text } = incoming;
    const scan = scanJsonNesting(text);
    if (scan.tooDeep) {
      // Nested deeper than MAX_JSON_DEPTH: refused, the stream stays up. A request is answered
      // here, a response reaches the server as that error (it waits for one), a notification is dropped.
      const parsed = parseFrame(text, scan);
      if (parsed.kind !== 'too_deep') {
        // Deep and not even JSON-RPC (no jsonrpc 2.0 at its top): a bad frame like any other.
        finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.InvalidPayload, detail: 'too_deep' });
        return;
      }
      const outcome = tooDeepOutcome(parsed);
      options.onRefused?.(outcome.kind);
      if (outcome.kind === 'request') socket.send(JSON.stringify(outcome.reply));
      if (outcome.kind === 'response') stdin.write(encodeLspFrame(JSON.stringify(outcome.forward)));
      return;
    }
    // An escaped or repeated top-level key leaves the scan unsure: such a rare frame is decoded.
    const envelope = readEnvelope(scan);
    const shapeOk = envelope !== undefined || (scan.balancedObject && scan.ambiguousKeys && parseFrame(text, scan).kind === 'jsonrpc');
    if (!shapeOk) {
      // Not JSON-RPC: the one control frame agentctl takes (release-stream, once per stream) is
      // decoded here; anything else is a bad frame.
      const parsed = scan.balancedObject ? parseFrame(text, scan) : undefined;
      if (parsed?.kind === 'control' && parsed.frame.control === 'release-stream') {
        finish({ kind: 'release_requested' });
        return;
      }
      if (parsed?.kind === 'invalid' && parsed.reason === 'unknown_shape') {
        const watched = watchedFilesControl(text);
        if (watched) {
          options.onWatchedFiles?.(watched.watchers);
          return;
        }
      }
      finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.InvalidPayload, detail: scan.balancedObject ? 'unknown_shape' : 'not_json' });
      return;
    }
    if (envelope?.method === 'initialize' && !envelope.isResponse && options.rewriteInitialize) {
      text = options.rewriteInitialize(text);
      bytes = Buffer.from(text, 'utf8');
    }
    let header: Uint8Array;
    try {
      header = lspFrameHeader(bytes.length);
    } catch {
      finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.MessageTooBig, detail: 'body over the bound' });
      return;
    }
    stdin.writeFrame(header, bytes);
    if (envelope && options.observe) options.observe(envelope, text);
  };
  const onClosed = (code: number) => {
    const error = socket.lastError;
    if (error) finish({ kind: 'client_bad_frame', closeCode: wsErrorCode(error), detail: error.message });
    else finish({ kind: 'client_closed', code });
  };

  const decoder = new LspFrameDecoder();
  const stdout = server.child.stdout;
  const onStdout = (chunk: Buffer) => {
    if (ended) return;
    let bodies: Uint8Array[];
    try {
      bodies = decoder.pushBytes(chunk);
    } catch (err) {
      const code = err instanceof FramingError ? err.code : 'bad_header';
      const tooBig = code === 'body_too_large' || code === 'header_line_too_long' || code === 'headers_too_long';
      finish({ kind: 'server_bad_output', closeCode: tooBig ? BadInputCloseCode.MessageTooBig : BadInputCloseCode.InvalidPayload, detail: code });
      return;
    }
    // Bodies go out as the text frames they already are, undecoded. A server's invalid UTF-8 is
    // decoded (with replacement characters) as before, so a text frame never carries it.
    for (const body of bodies) socket.send(isUtf8(body) ? body : replacingDecoder.decode(body));
  };

  stdout.on('data', onStdout);
  let registrations = new DisposableStore();
  const bind = () => {
    // Held client frames are delivered as soon as onText registers, and may end the bridge then:
    // the store disposes whatever is registered after that at once.
    registrations.add(socket.onClose(onClosed));
    registrations.add(
      socket.onBackpressure((full) => {
        if (ended || parked) return;
        if (full) stdout.pause();
        else stdout.resume();
      }),
    );
    registrations.add(socket.onText(onMessage));
  };
  bind();

  // The server's last messages may still sit in the pipe when `exit` fires: flush stdout (bounded,
  // since a descendant may hold the pipe open forever), then report the exit.
  void server.exited.then((exit) => {
    if (ended) return;
    const report = () => finish({ kind: 'server_exited', exit });
    if (stdout.readableEnded || stdout.destroyed) {
      report();
      return;
    }
    stdout.once('end', report);
    exitTimer = after(clock, options.exitFlushMs, report);
  });

  function dispose(): void {
    exitTimer?.dispose();
    stdin.dispose();
    registrations.dispose();
    // A socket paused for stdin backpressure must read again, or its close handshake stalls.
    socket.resume('backpressure');
    stdout.off('data', onStdout);
    // Keep draining stdout after the bridge ends, so a server blocked on a full pipe can exit.
    stdout.resume();
  }

  function park(): void {
    if (ended || parked) return;
    parked = true;
    registrations.dispose();
    registrations = new DisposableStore();
    stdout.pause();
  }

  function rebind(next: FrameSocket): void {
    if (ended || !parked) return;
    socket = next;
    parked = false;
    bind();
    if (!ended) stdout.resume();
  }

  // A socket already closing never delivers its close to a listener added now: end at once.
  if (socket.isClosed) onClosed(ReservedCloseCode.Abnormal);
  return {
    dispose,
    park,
    rebind,
    get parked() {
      return parked;
    },
    notifyServer(body) {
      if (ended) return;
      stdin.write(encodeLspFrame(body));
    },
  };
}
