import type { Disposable } from '@kandev/kit';
import {
  BadInputCloseCode,
  LSP_MAX_BODY_BYTES,
  TASK_HOST_PATHS,
  WS_WRITE_DEADLINE_MS,
  lspStreamPath,
  resumeStreamPath,
  type LanguageId,
} from '@kandev/protocol';
import { WebSocket } from 'ws';
import type { TaskHostEndpoint } from '../executors/executor.js';
import { fail, messageOf, ok, type Result } from '../base/result.js';
import { DEFAULT_KEEPALIVE, FrameSocket, type KeepaliveTiming } from '@kandev/node-transport';
import type { UpstreamEndpoint } from './relay.js';
import { timedFrames, type FrameTimer } from './relayTiming.js';

export interface UpstreamOptions {
  language: LanguageId;
  /** From the user's settings, never from the browser: agentctl decides whether it can install. */
  autoInstall: boolean;
  /** The task's trust switch: absent or false, agentctl runs the server with its trust guards. */
  trustWorkspaceTools?: boolean;
  handshakeTimeoutMs?: number;
  writeDeadlineMs?: number;
  /** Pings agentctl on this timing; one that does not answer (hung, SIGSTOP) is dropped (1006 -> 4009). */
  keepalive?: KeepaliveTiming;
  /** An unanswered-pings drop, for the log. */
  onDead?: () => void;
  /** Told how long each frame from agentctl took until it was handed on (the relay's added latency). */
  onRelayed?: FrameTimer;
  /** Resume agentctl's live stream with this id instead of opening a new one (docs/restarts.md). */
  resumeStream?: number;
}

const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * The task-host edge: one `GET /api/v1/lsp/stream` WebSocket to a session's agentctl, carrying the
 * session's bearer token. The same bounds as the browser side: 16 MiB frames (larger closes 1009),
 * 5 s write deadline.
 */
export class UpstreamStream implements UpstreamEndpoint {
  private constructor(
    private readonly socket: FrameSocket,
    private readonly onRelayed: FrameTimer | undefined,
  ) {}

  static async open(endpoint: TaskHostEndpoint, options: UpstreamOptions): Promise<Result<UpstreamStream, string>> {
    const path = options.resumeStream === undefined ? lspStreamPath(options) : resumeStreamPath(TASK_HOST_PATHS.lspStream, options.resumeStream);
    const url = new URL(path, endpoint.baseUrl.replace(/^http/, 'ws'));
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${endpoint.token}` },
      maxPayload: LSP_MAX_BODY_BYTES,
      handshakeTimeout: options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
      perMessageDeflate: false,
      followRedirects: false,
      // A zero mask makes ws skip masking here and unmasking in agentctl (a byte loop over every
      // frame, both ways). Masking guards HTTP intermediaries against cache poisoning; this
      // connection goes straight to the session's own agentctl, with no intermediary to guard.
      generateMask: (mask: Buffer) => {
        mask.fill(0);
      },
    });
    // Wrapped before the handshake ends so frames sent right after it are held, not lost.
    // agentctl stops reading while its server's stdin is full: slow, not dead, as long as it still
    // pings or answers. The stdin cutoff on its side ends a server that stops reading.
    const socket = new FrameSocket(ws, {
      writeDeadlineMs: options.writeDeadlineMs ?? WS_WRITE_DEADLINE_MS,
      keepalive: options.keepalive ?? DEFAULT_KEEPALIVE,
      patientWithLivePeer: true,
    });
    if (options.onDead) socket.onDead(options.onDead);
    const opened = await new Promise<Result<void, string>>((resolve) => {
      ws.once('open', () => resolve(ok(undefined)));
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        ws.terminate();
        resolve(fail(`agentctl refused the LSP stream with HTTP ${res.statusCode ?? '?'}`));
      });
      ws.once('error', (err) => resolve(fail(`agentctl LSP stream failed: ${messageOf(err)}`)));
    });
    if (!opened.ok) return opened;
    return ok(new UpstreamStream(socket, options.onRelayed));
  }

  send(data: string | readonly Uint8Array[]): void {
    if (typeof data === 'string') this.socket.send(data);
    else this.socket.sendPieces(data);
  }

  close(code: number): void {
    this.socket.close(code);
  }

  throttle(blocked: boolean): void {
    if (blocked) this.socket.pause('backpressure');
    else this.socket.resume('backpressure');
  }

  onBackpressure(handler: (full: boolean) => void): Disposable {
    return this.socket.onBackpressure(handler);
  }

  onFrame(handler: (text: string, bytes?: Uint8Array) => void): Disposable {
    return this.socket.onText(
      timedFrames((incoming) => {
        // agentctl speaks text frames only; a binary frame is a broken peer.
        if ('text' in incoming) handler(incoming.text, incoming.bytes);
        else this.socket.close(BadInputCloseCode.InvalidPayload);
      }, this.onRelayed),
    );
  }

  onClose(handler: (code: number) => void): Disposable {
    return this.socket.onClose(handler);
  }
}
