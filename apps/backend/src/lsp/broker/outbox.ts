/**
 * Collects the effects of handling one event, in order. Holds `now` for that event, so nothing
 * below the broker ever reads a clock.
 */
import type { LanguageId, OutgoingText } from '@kandev/protocol';
import type { TimerPurpose, TimerRegistry } from './timers.js';
import type {
  AttachmentId,
  BrowserCloseCode,
  BrowserOutFrame,
  Effect,
  JsonRpcMessage,
  LeaseId,
  LogEvent,
  LogReason,
  TimerId,
  UpstreamCloseCode,
} from './types.js';

export class Outbox {
  readonly effects: Effect[] = [];

  constructor(
    readonly now: number,
    private readonly timers: TimerRegistry,
  ) {}

  toBrowser(attachmentId: AttachmentId, frame: BrowserOutFrame): void {
    this.effects.push({ type: 'sendToBrowser', attachmentId, frame });
  }

  closeBrowser(attachmentId: AttachmentId, code: BrowserCloseCode): void {
    this.effects.push({ type: 'closeBrowser', attachmentId, code });
  }

  toServer(leaseId: LeaseId, message: JsonRpcMessage): void {
    this.effects.push({ type: 'sendToUpstream', leaseId, message });
  }

  relayToBrowser(attachmentId: AttachmentId, { text, wire }: OutgoingText): void {
    this.effects.push(wire ? { type: 'relayToBrowser', attachmentId, text, wire } : { type: 'relayToBrowser', attachmentId, text });
  }

  relayToServer(leaseId: LeaseId, { text, wire }: OutgoingText): void {
    this.effects.push(wire ? { type: 'relayToUpstream', leaseId, text, wire } : { type: 'relayToUpstream', leaseId, text });
  }

  closeUpstream(leaseId: LeaseId, code: UpstreamCloseCode): void {
    this.effects.push({ type: 'closeUpstream', leaseId, code });
  }

  releaseUpstream(leaseId: LeaseId): void {
    this.effects.push({ type: 'releaseUpstream', leaseId });
  }

  push(effect: Effect): void {
    this.effects.push(effect);
  }

  /** Arms a timer `delayMs` from now and remembers why. */
  arm(purpose: TimerPurpose, delayMs: number): TimerId {
    const timerId = this.timers.add(purpose);
    this.effects.push({ type: 'armTimer', timerId, atMs: this.now + delayMs });
    return timerId;
  }

  cancel(timerId: TimerId | undefined): void {
    if (timerId !== undefined && this.timers.remove(timerId)) this.effects.push({ type: 'cancelTimer', timerId });
  }

  /** Cancels every timer still armed for a lease (its end makes them all moot). */
  cancelLeaseTimers(leaseId: LeaseId): void {
    for (const id of this.timers.ofLease(leaseId)) this.cancel(id);
  }

  log(event: LogEvent, reason: LogReason, language: LanguageId): void {
    this.effects.push({ type: 'log', event, reason, language });
  }
}
