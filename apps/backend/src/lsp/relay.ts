import type { Disposable } from '@kandev/kit';
import type { ControlFrame, LanguageId, StatusFrame } from '@kandev/protocol';
import type { Result } from '../base/result.js';

/**
 * The seam between the two edges of the gateway and the lease broker between them: the gateway
 * hands the relay admitted browser connections; the relay opens task-host streams when a lease
 * needs one, through the opener it is given (leases outlive the connection that created them).
 */

/** A validated frame from the browser (anything else already closed the socket with 1007). */
export type BrowserFrame =
  /**
   * `raw` is set when the scan read an unambiguous envelope: the broker may then relay `text` (its
   * id spliced at `raw.idSpan`) instead of re-encoding `message`.
   */
  | {
      kind: 'jsonrpc';
      text: string;
      message: Record<string, unknown> & { jsonrpc: '2.0' };
      raw?: { text: string; bytes?: Uint8Array; idSpan?: readonly [number, number] };
    }
  | { kind: 'control'; frame: ControlFrame };

/** The browser edge: one accepted WebSocket. Every `on...` registration returns its Disposable. */
export interface BrowserEndpoint {
  /** One of our status frames (ready, installing, released, ...). */
  sendStatus(frame: StatusFrame): void;
  /** A JSON-RPC frame, already serialized. Every write has the 5 s deadline. */
  sendText(text: string): void;
  /**
   * The same, given as the UTF-8 pieces of one relayed message (written as they are, see
   * `OutgoingText`). Optional: an endpoint without it is given the text.
   */
  sendPieces?(pieces: readonly Uint8Array[]): void;
  /** Sends a close frame; `code` must be sendable (normalize first). Idempotent. */
  close(code: number, reason?: string): void;
  /** While paused, frames the browser sent are held (and TCP backpressure applies). */
  pause(): void;
  resume(): void;
  /** Stops (true) or resumes (false) reading the browser because its lease's upstream is full. */
  throttle(blocked: boolean): void;
  /** Outgoing bytes crossed the high watermark (true) or fell to the low one / closed (false). */
  onBackpressure(handler: (full: boolean) => void): Disposable;
  onFrame(handler: (frame: BrowserFrame) => void): Disposable;
  /**
   * Adds a close listener (the gateway and the relay each add one), called once with the code we
   * sent when we closed first, else the browser's code.
   */
  onClose(handler: (code: number) => void): Disposable;
  /** A write did not drain within the deadline: called before the stuck socket is terminated. */
  onWriteTimeout(handler: () => void): Disposable;
  /** True when the peer answers a ping within `timeoutMs` (false for a half-open connection). */
  probe(timeoutMs: number): Promise<boolean>;
  /** Drops the connection without a close handshake. */
  terminate(): void;
  readonly isClosed: boolean;
}

/** The task-host edge: one agentctl LSP stream, i.e. one language-server process. `on...` returns a Disposable. */
export interface UpstreamEndpoint {
  /** A message's text, or its UTF-8 pieces (one relayed message, written as they are). */
  send(data: string | readonly Uint8Array[]): void;
  close(code: number): void;
  /** Stops (true) or resumes (false) reading agentctl because the lease's browser is full. */
  throttle(blocked: boolean): void;
  /** Outgoing bytes crossed the high watermark (true) or fell to the low one / closed (false). */
  onBackpressure(handler: (full: boolean) => void): Disposable;
  /** Each text frame, with the UTF-8 bytes it arrived as when the endpoint keeps them. */
  onFrame(handler: (text: string, bytes?: Uint8Array) => void): Disposable;
  /** Adds a close listener, called once with agentctl's code (1006 when the connection just died). */
  onClose(handler: (code: number) => void): Disposable;
}

/** An admitted browser connection: caller, language, session and executor already checked. */
export interface LeaseRequest {
  sessionId: string;
  language: LanguageId;
  /** The browser's sessionStorage hint: it routes, it never authorizes. */
  leaseHint: string | undefined;
  /** An agent's MCP client rather than a person's tab (absent: a person's). */
  ownerKind?: 'person' | 'agent';
}

/** What a lease asks of its task host. `autoInstall` comes from the owner's settings. */
export interface UpstreamTarget {
  sessionId: string;
  language: LanguageId;
  autoInstall: boolean;
  /** From the task's trust switch when the lease was created, never from the browser. */
  trustWorkspaceTools: boolean;
  /** Resume agentctl's live stream with this id (a lease re-adopted after a restart) instead of launching a server. */
  resumeStream?: number;
}

/** Starts or resumes the session's task host if needed and opens one LSP stream; an error means 4002. */
export type UpstreamOpener = (target: UpstreamTarget) => Promise<Result<UpstreamEndpoint, string>>;

export interface LspRelay {
  /** Takes over an admitted browser connection (paused until the relay resumes it). */
  attach(browser: BrowserEndpoint, request: LeaseRequest): void;
  /** Backend shutdown: ends what the relay holds; settles once its upstreams are closed (bounded). */
  shutdown(): Promise<void>;
}
