import { Emitter, type Disposable } from '@kandev/kit';
import { parseFrame, readEnvelope, ReservedCloseCode, scanJsonNesting, type StatusFrame } from '@kandev/protocol';
import type { BrowserEndpoint, BrowserFrame } from '../lsp/relay.js';

/** What the broker says to an agent's lease: our status frames and the server's JSON-RPC. */
export interface AgentEndpointSink {
  status(frame: StatusFrame): void;
  message(message: Record<string, unknown>): void;
  closed(code: number): void;
}

/**
 * The broker's side of an agent's lease: it stands where a browser socket stands (BrowserEndpoint),
 * in this process. The broker cannot tell it from a tab, so capacity, trust, settings, restarts and
 * release apply to it unchanged. Frames cross in both directions on a microtask, never re-entering
 * the broker in the middle of an event's effects.
 */
export class AgentEndpoint implements BrowserEndpoint {
  private closedWith: number | undefined;
  private paused = true;
  private readonly held: string[] = [];
  private readonly frames = new Emitter<BrowserFrame>();
  private readonly closes = new Emitter<number>();

  constructor(private readonly sink: AgentEndpointSink) {}

  get isClosed(): boolean {
    return this.closedWith !== undefined;
  }

  /** A frame from the agent's LSP client to the broker (held while the broker has not read it yet). */
  send(text: string): void {
    if (this.isClosed) return;
    if (this.paused) {
      this.held.push(text);
      return;
    }
    this.deliver(text);
  }

  private deliver(text: string): void {
    const scan = scanJsonNesting(text);
    const parsed = parseFrame(text, scan);
    if (parsed.kind === 'control') return this.frames.fire({ kind: 'control', frame: parsed.frame });
    if (parsed.kind !== 'jsonrpc') return;
    const envelope = readEnvelope(scan);
    if (!envelope) return this.frames.fire({ kind: 'jsonrpc', text, message: parsed.message });
    this.frames.fire({ kind: 'jsonrpc', text, message: parsed.message, raw: envelope.idSpan ? { text, idSpan: envelope.idSpan } : { text } });
  }

  sendStatus(frame: StatusFrame): void {
    if (!this.isClosed) queueMicrotask(() => this.sink.status(frame));
  }

  /** The broker writes status frames as text too (`sendToBrowser`): told apart by `status`. */
  sendText(text: string): void {
    if (this.isClosed) return;
    const message = JSON.parse(text) as Record<string, unknown>;
    if (typeof message.status === 'string' && !('jsonrpc' in message)) {
      const frame = message as unknown as StatusFrame;
      queueMicrotask(() => this.sink.status(frame));
      return;
    }
    queueMicrotask(() => this.sink.message(message));
  }

  close(code: number): void {
    if (this.isClosed) return;
    this.closedWith = code;
    this.closes.fire(code);
    queueMicrotask(() => this.sink.closed(code));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    const held = this.held.splice(0);
    queueMicrotask(() => {
      for (const text of held) if (!this.isClosed) this.deliver(text);
    });
  }

  // In-process: nothing to throttle and no bytes pile up unwritten.
  throttle(): void {}

  onBackpressure(): Disposable {
    return { dispose: () => undefined };
  }

  onFrame(handler: (frame: BrowserFrame) => void): Disposable {
    return this.frames.event(handler);
  }

  onClose(handler: (code: number) => void): Disposable {
    return this.closes.event(handler);
  }

  onWriteTimeout(): Disposable {
    return { dispose: () => undefined };
  }

  /** An in-process holder is alive exactly while it is open. */
  probe(): Promise<boolean> {
    return Promise.resolve(!this.isClosed);
  }

  terminate(): void {
    this.close(ReservedCloseCode.Abnormal);
  }
}
