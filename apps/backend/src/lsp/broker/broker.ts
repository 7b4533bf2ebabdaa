/**
 * The lease broker: a deterministic state machine. `handle(event, now)` routes one event to the
 * reducer of its family and returns the effects to perform, in order. No sockets, timers or clocks
 * inside; see README.md. The state lives in state.ts; the rules in the four family modules:
 *
 * - attachments.ts: a browser socket arrives or goes (admission, holder probe, attach, detach);
 * - browserMessages.ts: a frame from an attached browser;
 * - serverMessages.ts: a frame from a lease's task-host stream, or its close;
 * - lifecycle.ts: timers, saved settings, session stop, shutdown, adoption after a restart;
 *
 * and leaseEnd.ts holds the terminal paths they share.
 */
import { persistableOf, persistSignature, type PersistableLease } from './adoption.js';
import { reduceAttachmentEvent } from './attachments.js';
import { reduceBrowserFrame } from './browserMessages.js';
import { reduceLifecycleEvent } from './lifecycle.js';
import { viewOf, type LeaseView } from './leaseView.js';
import { collectMetrics, type BrokerMetrics } from './metrics.js';
import { Outbox } from './outbox.js';
import { reduceServerEvent } from './serverMessages.js';
import { isOutputNotification } from './serverRpc.js';
import { createBrokerState, type BrokerState } from './state.js';
import type { AttachmentId, BrokerEvent, BrokerOptions, Effect, LeaseId, UserId } from './types.js';

export { DEFAULT_REAP_WAIT_MS, DEFAULT_SHUTDOWN_WAIT_MS } from './state.js';
export type { LeaseView } from './leaseView.js';

export class LeaseBroker {
  private readonly state: BrokerState;

  constructor(options: BrokerOptions) {
    this.state = createBrokerState(options);
  }

  /** Applies one event at time `now` (epoch ms) and returns the effects to perform, in order. */
  handle(event: BrokerEvent, now: number): Effect[] {
    const out = new Outbox(now, this.state.timers);
    switch (event.type) {
      case 'browserConnected':
      case 'browserClosed':
      case 'browserWriteTimedOut':
      case 'holderAnswered':
      case 'holderSilent':
        reduceAttachmentEvent(this.state, event, out);
        break;
      case 'browserFrame':
        reduceBrowserFrame(this.state, event, out);
        break;
      case 'upstreamFrame':
      case 'upstreamClosed':
        reduceServerEvent(this.state, event, out);
        break;
      case 'timerFired':
      case 'settingsChanged':
      case 'sessionStopped':
      case 'shutdown':
      case 'leaseAdopted':
        reduceLifecycleEvent(this.state, event, out);
        break;
    }
    return out.effects;
  }

  /**
   * What changed in the resumable state of the leases since `known` (lease id -> signature): the
   * leases to write again, and the ids no longer resumable (ended, or restarting a crashed server).
   */
  journalChanges(known: ReadonlyMap<LeaseId, string>): { save: PersistableLease[]; remove: LeaseId[] } {
    const save: PersistableLease[] = [];
    const live = new Set<LeaseId>();
    for (const lease of this.state.table.all()) {
      const signature = persistSignature(lease);
      if (signature === undefined) continue;
      live.add(lease.id);
      if (known.get(lease.id) === signature) continue;
      const persisted = persistableOf(lease, signature);
      if (persisted) save.push(persisted);
    }
    const remove = [...known.keys()].filter((id) => !live.has(id));
    return { save, remove };
  }

  metrics(): BrokerMetrics {
    return collectMetrics(this.state.table.all(), this.state.counters, this.state.maxLeases);
  }

  lease(leaseId: LeaseId): LeaseView | undefined {
    const lease = this.state.table.get(leaseId);
    return lease && viewOf(lease);
  }

  leases(): LeaseView[] {
    return this.state.table.all().map(viewOf);
  }

  /**
   * True when a server notification `method` would change nothing on this lease now: no browser to
   * deliver it to and not one the lease retains ($/progress). A pure query; lets the wiring drop a
   * flood for a detached lease without parsing it. Must agree with serverRpc's serverNotification.
   */
  dropsServerNotification(leaseId: LeaseId, method: string): boolean {
    const lease = this.state.table.get(leaseId);
    if (!lease || method === '$/progress' || isOutputNotification(method)) return false;
    return !lease.attachment || lease.phase.kind !== 'running';
  }

  /** The lease a live attachment is on. */
  leaseOf(attachmentId: AttachmentId): LeaseId | undefined {
    return this.state.attachments.get(attachmentId);
  }

  settingsRevision(userId: UserId): number {
    return this.state.settings.revision(userId);
  }

  /** Timers armed and not yet fired or cancelled (a leak detector for tests). */
  get armedTimers(): number {
    return this.state.timers.size;
  }
}
