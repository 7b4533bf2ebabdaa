import type { Disposable } from '@kandev/kit';
import { BadInputCloseCode, parseFrame, readEnvelope, scanJsonNesting, tooDeepOutcome, type StatusFrame } from '@kandev/protocol';
import { FrameSocket, type FrameSocketOptions, type WsLike } from '@kandev/node-transport';
import type { BrowserEndpoint, BrowserFrame } from './relay.js';
import { timedFrames, type FrameTimer } from './relayTiming.js';

export interface BrowserSocketOptions extends FrameSocketOptions {
  /** A message refused for its nesting; the caller logs it (the connection stays up). */
  onRefused?: (kind: 'request' | 'response' | 'notification') => void;
  /** Told how long each frame from the browser took until it was handed on (the relay's added latency). */
  onRelayed?: FrameTimer;
}

/**
 * The browser edge over one accepted WebSocket. It enforces the frame rules before any relay sees
 * a frame: a frame that is not one JSON-RPC message or control frame (not JSON, not an object, a
 * binary frame, a status frame the browser has no business sending) closes this connection with
 * 1007, and only this one. Oversized frames never get here: `maxPayload` closes them with 1009.
 * A message nested deeper than MAX_JSON_DEPTH is refused here and the connection stays up: a
 * request is answered at once (the broker never sees it, so it holds no pending slot), a response
 * reaches the broker as that error, a notification is dropped.
 */
export class BrowserSocket implements BrowserEndpoint {
  private readonly socket: FrameSocket;

  private readonly onRefused: BrowserSocketOptions['onRefused'];
  private readonly onRelayed: FrameTimer | undefined;

  constructor(ws: WsLike, options: BrowserSocketOptions = {}) {
    const { onRefused, onRelayed, ...socketOptions } = options;
    this.onRefused = onRefused;
    this.onRelayed = onRelayed;
    this.socket = new FrameSocket(ws, socketOptions);
    // Held until a relay takes over: admission runs first and nothing may reach an upstream early.
    this.socket.pause();
  }

  get isClosed(): boolean {
    return this.socket.isClosed;
  }

  sendStatus(frame: StatusFrame): void {
    this.socket.send(JSON.stringify(frame));
  }

  sendText(text: string): void {
    this.socket.send(text);
  }

  sendPieces(pieces: readonly Uint8Array[]): void {
    this.socket.sendPieces(pieces);
  }

  close(code: number, reason?: string): void {
    this.socket.close(code, reason);
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  throttle(blocked: boolean): void {
    if (blocked) this.socket.pause('backpressure');
    else this.socket.resume('backpressure');
  }

  onBackpressure(handler: (full: boolean) => void): Disposable {
    return this.socket.onBackpressure(handler);
  }

  onDead(handler: () => void): Disposable {
    return this.socket.onDead(handler);
  }

  onFrame(handler: (frame: BrowserFrame) => void): Disposable {
    return this.socket.onText(timedFrames(this.handleText(handler), this.onRelayed));
  }

  private handleText(handler: (frame: BrowserFrame) => void): Parameters<FrameSocket['onText']>[0] {
    return (incoming) => {
      if (!('text' in incoming)) return this.socket.close(BadInputCloseCode.InvalidPayload, 'binary frames are not accepted');
      const scan = scanJsonNesting(incoming.text);
      const parsed = parseFrame(incoming.text, scan);
      if (parsed.kind === 'jsonrpc') {
        // Decoded (and so validated) here, once; what the broker passes on goes out as this text.
        const envelope = readEnvelope(scan);
        if (!envelope) return handler({ kind: 'jsonrpc', text: incoming.text, message: parsed.message });
        // The bytes too: what is relayed goes out as them (the id spliced), not encoded again.
        const { text, bytes } = incoming;
        const raw = envelope.idSpan ? { text, bytes, idSpan: envelope.idSpan } : { text, bytes };
        return handler({ kind: 'jsonrpc', text: incoming.text, message: parsed.message, raw });
      }
      if (parsed.kind === 'control') return handler({ kind: 'control', frame: parsed.frame });
      if (parsed.kind === 'too_deep') {
        const outcome = tooDeepOutcome(parsed);
        this.onRefused?.(outcome.kind);
        if (outcome.kind === 'request') this.socket.send(JSON.stringify(outcome.reply));
        if (outcome.kind === 'response') handler({ kind: 'jsonrpc', text: JSON.stringify(outcome.forward), message: outcome.forward });
        return;
      }
      this.socket.close(BadInputCloseCode.InvalidPayload, parsed.kind === 'invalid' ? parsed.reason : 'unexpected_status_frame');
    };
  }

  onClose(handler: (code: number) => void): Disposable {
    return this.socket.onClose(handler);
  }

  probe(timeoutMs: number): Promise<boolean> {
    return this.socket.probe(timeoutMs);
  }

  /** Drops a connection that no longer answers: no close frame can reach it anyway. */
  terminate(): void {
    this.socket.terminate();
  }

  onWriteTimeout(handler: () => void): Disposable {
    return this.socket.onWriteTimeout(handler);
  }
}
