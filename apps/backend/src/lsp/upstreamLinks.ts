/**
 * The task-host streams of the leases, by lease id: opened on `openUpstream`, written on
 * `sendToUpstream`, closed on `closeUpstream`, and always drained: every frame and the close go
 * back to the broker as events, whatever any browser is doing.
 *
 * Opening is asynchronous (the task host may still be starting); what the broker sends meanwhile
 * is held in order, and a close asked for meanwhile closes the stream as soon as it exists.
 */
import { deadline, systemClock, type Clock } from '@kandev/kit';
import {
  CloseCode,
  parseFrame,
  readEnvelope,
  scanJsonNesting,
  scannedNotificationMethod,
  tooDeepOutcome,
  type LanguageId,
  type ParsedFrame,
} from '@kandev/protocol';
import type { UpstreamClosed, UpstreamFrameEvent } from './broker/index.js';
import type { UpstreamEndpoint, UpstreamOpener, UpstreamTarget } from './relay.js';

interface Link {
  language: LanguageId;
  stream?: UpstreamEndpoint;
  /** Frames the broker sent before the stream opened. */
  held: Array<string | readonly Uint8Array[]>;
  /** A close the broker asked for before the stream opened. */
  closeCode?: number;
  /** Reading is stopped because the lease's browser cannot take more (applied once open). */
  throttled: boolean;
  /** Settles when the stream is closed or could not be opened. */
  done: Promise<void>;
}

export interface UpstreamLinkEvents {
  frame(event: UpstreamFrameEvent): void;
  closed(event: UpstreamClosed): void;
  /** The stream could not be opened; the detail stays in backend logs. */
  openFailed(language: LanguageId, detail: string): void;
  /** Writes to agentctl crossed the high watermark (true) or fell to the low one (false). */
  backpressure(leaseId: string, full: boolean): void;
  /** True when the broker would drop this server notification unread (nobody attached to deliver to). */
  ignores(leaseId: string, method: string): boolean;
  /** The server sent a message nested too deep; it was refused (answered, replaced or dropped). */
  refused(language: LanguageId, kind: 'request' | 'response' | 'notification'): void;
}

export class UpstreamLinks {
  private readonly links = new Map<string, Link>();

  constructor(
    private readonly opener: UpstreamOpener,
    private readonly events: UpstreamLinkEvents,
    private readonly clock: Clock = systemClock,
  ) {}

  get size(): number {
    return this.links.size;
  }

  open(leaseId: string, target: UpstreamTarget): void {
    if (this.links.has(leaseId)) return;
    let settle!: () => void;
    const link: Link = { language: target.language, held: [], throttled: false, done: new Promise<void>((resolve) => (settle = resolve)) };
    this.links.set(leaseId, link);
    const gone = (code: number): void => {
      if (this.links.get(leaseId) === link) this.links.delete(leaseId);
      settle();
      this.events.closed({ type: 'upstreamClosed', leaseId, code });
    };
    this.opener(target).then(
      (opened) => {
        if (!opened.ok) {
          this.events.openFailed(target.language, opened.error);
          return gone(CloseCode.Unavailable);
        }
        const stream = opened.value;
        link.stream = stream;
        stream.onClose(gone);
        if (link.closeCode !== undefined) return stream.close(link.closeCode);
        stream.onBackpressure((full) => this.events.backpressure(leaseId, full));
        if (link.throttled) stream.throttle(true);
        stream.onFrame((text, bytes) => {
          // The broker drains a detached lease's server; what it would drop is dropped unparsed.
          const scan = scanJsonNesting(text);
          const method = scannedNotificationMethod(scan);
          if (method !== undefined && this.events.ignores(leaseId, method)) return;
          // A JSON-RPC message goes to the broker undecoded: it decodes only what it owns.
          const envelope = readEnvelope(scan);
          if (envelope) {
            const frame = bytes ? { kind: 'raw' as const, text, bytes, envelope, scan } : { kind: 'raw' as const, text, envelope, scan };
            return this.events.frame({ type: 'upstreamFrame', leaseId, frame });
          }
          this.received(leaseId, link, stream, parseFrame(text, scan));
        });
        for (const text of link.held.splice(0)) stream.send(text);
      },
      (err: unknown) => {
        this.events.openFailed(target.language, err instanceof Error ? err.message : String(err));
        gone(CloseCode.Unavailable);
      },
    );
  }

  /**
   * A server message nested deeper than MAX_JSON_DEPTH never reaches the broker as such: a server
   * request is answered here, a response reaches the broker as the refusal (its browser request
   * ends with an error naming the bound, not a timeout), a notification is dropped.
   */
  private received(leaseId: string, link: Link, stream: UpstreamEndpoint, frame: ParsedFrame): void {
    if (frame.kind !== 'too_deep') return this.events.frame({ type: 'upstreamFrame', leaseId, frame });
    const outcome = tooDeepOutcome(frame);
    this.events.refused(link.language, outcome.kind);
    if (outcome.kind === 'request') stream.send(JSON.stringify(outcome.reply));
    if (outcome.kind === 'response') this.events.frame({ type: 'upstreamFrame', leaseId, frame: { kind: 'jsonrpc', message: outcome.forward } });
  }

  /** Stops or resumes reading a lease's stream (the broker's browser side is full or drained). */
  throttle(leaseId: string, blocked: boolean): void {
    const link = this.links.get(leaseId);
    if (!link || link.throttled === blocked) return;
    link.throttled = blocked;
    link.stream?.throttle(blocked);
  }

  /** A message's text, or its UTF-8 pieces (a relayed message, written as they are). */
  send(leaseId: string, data: string | readonly Uint8Array[]): void {
    const link = this.links.get(leaseId);
    if (!link || link.closeCode !== undefined) return;
    if (link.stream) link.stream.send(data);
    else link.held.push(data);
  }

  /** Closes a lease's stream; agentctl reaps the server and completes the close (an `upstreamClosed`). */
  close(leaseId: string, code: number): void {
    const link = this.links.get(leaseId);
    if (!link || link.closeCode !== undefined) return;
    link.closeCode = code;
    link.held.length = 0;
    link.stream?.close(code);
  }

  /** Settles when every stream open now is closed, or after `timeoutMs`, whichever comes first. */
  async drained(timeoutMs: number): Promise<void> {
    const pending = [...this.links.values()].map((l) => l.done);
    if (pending.length === 0) return;
    const limit = deadline(this.clock, timeoutMs);
    await Promise.race([Promise.all(pending), limit.reached]);
    limit.dispose();
  }
}
