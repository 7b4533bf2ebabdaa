import { isUtf8 } from 'node:buffer';
import { BadInputCloseCode, encodeLspFrame, FramingError, LspFrameDecoder, lspFrameHeader, parseFrame, readEnvelope, scanJsonNesting, tooDeepOutcome } from '@kandev/protocol';
import type { RawData } from 'ws';
import type WebSocket from 'ws';
import type { ExitInfo, LaunchedServer } from '../process/launch.js';
import type { DeadlineSender } from './deadlineSender.js';
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
  /** Unwritten WebSocket bytes above which the server's stdout is paused. */
  highWatermark: number;
  /** How long to keep forwarding stdout after the server exited (its last words), at most. */
  exitFlushMs: number;
  /** A client message refused for its nesting (answered, replaced or dropped); for the log. */
  onRefused?: (kind: 'request' | 'response' | 'notification') => void;
}

export interface Bridge {
  dispose(): void;
}

function rawToBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Maps a ws library error (raised while reading a client frame) to the standard close code. */
function wsErrorCode(err: Error): BadInputCode {
  return (err as Error & { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? BadInputCloseCode.MessageTooBig : BadInputCloseCode.InvalidPayload;
}

/**
 * One WebSocket <-> one server's stdio. Client text frames must each be one JSON-RPC 2.0 object
 * (checked by a scan, not decoded) and are forwarded byte for byte as LSP frames; the server's LSP
 * frames are unframed (bounded) and their bodies sent byte for byte as text frames. Backpressure
 * flows both ways instead of buffering without bound.
 */
export function startBridge(ws: WebSocket, server: LaunchedServer, sender: DeadlineSender, options: BridgeOptions, onEnd: (end: BridgeEnd) => void): Bridge {
  let ended = false;
  let exitTimer: NodeJS.Timeout | undefined;
  let lastWsError: Error | undefined;
  const finish = (end: BridgeEnd) => {
    if (ended) return;
    ended = true;
    dispose();
    onEnd(end);
  };

  const stdin = new StdinWriter(server.child.stdin, options.stdinCutoffMs, () => finish({ kind: 'stdin_stuck' }), (blocked) => {
    if (blocked) ws.pause();
    else ws.resume();
  });

  const onMessage = (data: RawData, isBinary: boolean) => {
    if (ended) return;
    if (isBinary) {
      finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.InvalidPayload, detail: 'binary frame' });
      return;
    }
    // Relayed, not decoded: the bytes go to stdin as they came. The text is read once, by the
    // scanner, for the bounds (nesting) and the shape (one JSON-RPC 2.0 object); the backend, our
    // only client, sends only messages it decoded or built itself, so JSON.parse here would be a
    // second full decode of every message for nothing.
    const bytes = rawToBuffer(data);
    const text = bytes.toString('utf8');
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
      if (outcome.kind === 'request') void sender.send(JSON.stringify(outcome.reply));
      if (outcome.kind === 'response') stdin.write(encodeLspFrame(JSON.stringify(outcome.forward)));
      return;
    }
    // An escaped or repeated top-level key leaves the scan unsure: such a rare frame is decoded.
    const shapeOk = readEnvelope(scan) !== undefined || (scan.balancedObject && scan.ambiguousKeys && parseFrame(text, scan).kind === 'jsonrpc');
    if (!shapeOk) {
      // Not JSON-RPC: the one control frame agentctl takes (release-stream, once per stream) is
      // decoded here; anything else is a bad frame.
      const parsed = scan.balancedObject ? parseFrame(text, scan) : undefined;
      if (parsed?.kind === 'control' && parsed.frame.control === 'release-stream') {
        finish({ kind: 'release_requested' });
        return;
      }
      finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.InvalidPayload, detail: scan.balancedObject ? 'unknown_shape' : 'not_json' });
      return;
    }
    let header: Uint8Array;
    try {
      header = lspFrameHeader(bytes.length);
    } catch {
      finish({ kind: 'client_bad_frame', closeCode: BadInputCloseCode.MessageTooBig, detail: 'body over the bound' });
      return;
    }
    stdin.writeFrame(header, bytes);
  };
  const onWsError = (err: Error) => {
    lastWsError = err;
  };
  const onWsClose = (code: number) => {
    if (lastWsError) finish({ kind: 'client_bad_frame', closeCode: wsErrorCode(lastWsError), detail: lastWsError.message });
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
    for (const body of bodies) sender.relay(isUtf8(body) ? body : replacingDecoder.decode(body));
    if (sender.pending > options.highWatermark && !stdout.isPaused()) {
      stdout.pause();
      sender.onceLow(() => {
        if (!ended) stdout.resume();
      });
    }
  };

  ws.on('message', onMessage);
  ws.on('error', onWsError);
  ws.on('close', onWsClose);
  stdout.on('data', onStdout);

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
    exitTimer = setTimeout(report, options.exitFlushMs);
  });

  function dispose(): void {
    if (exitTimer !== undefined) clearTimeout(exitTimer);
    stdin.dispose();
    ws.off('message', onMessage);
    // A socket paused for stdin backpressure must read again, or its close handshake stalls.
    ws.resume();
    ws.off('close', onWsClose);
    stdout.off('data', onStdout);
    // Keep draining stdout after the bridge ends, so a server blocked on a full pipe can exit.
    stdout.resume();
    // ws.off('error') is deliberately not done: an error after the end must stay handled.
  }

  if (ws.readyState !== ws.OPEN) onWsClose(1006);
  return { dispose };
}
