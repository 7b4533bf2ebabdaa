import type { ControlFrame, LanguageId, StatusFrame } from '@kandev/protocol';
import type { Result } from '../result.js';

/**
 * The seam between the two edges of the gateway and whatever sits between them. Today that is
 * PassThroughRelay (one browser = one upstream); the lease broker replaces it without touching the
 * edges: the gateway hands it admitted browser connections, and it opens upstreams when it needs
 * them through the opener it is given.
 */

/** A validated frame from the browser (anything else already closed the socket with 1007). */
export type BrowserFrame =
  | { kind: 'jsonrpc'; text: string; message: Record<string, unknown> & { jsonrpc: '2.0' } }
  | { kind: 'control'; frame: ControlFrame };

/** The browser edge: one accepted WebSocket. */
export interface BrowserEndpoint {
  /** One of our status frames (ready, installing, released, ...). */
  sendStatus(frame: StatusFrame): void;
  /** A JSON-RPC frame from the server, forwarded as received. */
  sendText(text: string): void;
  /** Sends a close frame; `code` must be sendable (normalize first). Idempotent. */
  close(code: number, reason?: string): void;
  /** While paused, frames the browser sent are held (and TCP backpressure applies). */
  pause(): void;
  resume(): void;
  onFrame(handler: (frame: BrowserFrame) => void): void;
  /**
   * Adds a close listener (the gateway and the relay each add one), called once with the code we
   * sent when we closed first, else the browser's code.
   */
  onClose(handler: (code: number) => void): void;
  readonly isClosed: boolean;
}

/** The task-host edge: one agentctl LSP stream, i.e. one language-server process. */
export interface UpstreamEndpoint {
  send(text: string): void;
  close(code: number): void;
  onFrame(handler: (text: string) => void): void;
  /** Adds a close listener, called once with agentctl's code (1006 when the connection just died). */
  onClose(handler: (code: number) => void): void;
}

export interface LeaseRequest {
  sessionId: string;
  language: LanguageId;
  /** The browser's sessionStorage hint: it routes, it never authorizes. */
  leaseHint: string | undefined;
}

export interface RelayConnection {
  request: LeaseRequest;
  /** Opens a new agentctl stream for this session and language; an error means 4002. */
  openUpstream(): Promise<Result<UpstreamEndpoint, string>>;
}

export interface LspRelay {
  /**
   * Takes over an admitted browser connection. Settles when the relay no longer needs the
   * connection's admission slot (for the pass-through: when both sockets are closed).
   */
  attach(browser: BrowserEndpoint, connection: RelayConnection): Promise<void>;
  /** Backend shutdown: closes what the relay holds. */
  shutdown(): Promise<void>;
}
