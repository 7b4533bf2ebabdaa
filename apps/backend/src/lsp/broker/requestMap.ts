/**
 * Browser request ids -> the broker's own server-facing ids, per attachment generation.
 *
 * The server only ever sees ids the broker minted (one counter per lease, never reused), so a reply
 * can be routed to the generation that asked, and a reply for a generation that ended (its entries
 * were drained at detach or release) finds nothing and is dropped. Bounded: 256 pending requests,
 * ids of at most 256 bytes, 64 KiB of tracked state; each entry carries its 30 s timer.
 */
import { MAX_PENDING_BROWSER_REQUESTS, MAX_REQUEST_ID_BYTES, MAX_TRACKED_REQUEST_STATE_BYTES } from '@kandev/protocol';
import { idBytes, idKey, utf8Length } from './jsonrpc.js';
import type { JsonRpcId, TimerId } from './types.js';

export interface PendingBrowserRequest {
  serverId: number;
  browserId: JsonRpcId;
  generation: number;
  method: string;
  startedAt: number;
  /** What this entry counts against the 64 KiB budget. */
  bytes: number;
  timerId?: TimerId;
}

export type TrackRefusal = 'id_too_large' | 'too_many_pending' | 'tracked_state_full' | 'duplicate_id';

export interface RequestLimits {
  maxPending: number;
  maxIdBytes: number;
  maxTrackedBytes: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  maxPending: MAX_PENDING_BROWSER_REQUESTS,
  maxIdBytes: MAX_REQUEST_ID_BYTES,
  maxTrackedBytes: MAX_TRACKED_REQUEST_STATE_BYTES,
};

/** Fixed bookkeeping cost per entry (numbers, keys, timer id), so tiny ids still cost something. */
const ENTRY_OVERHEAD_BYTES = 64;

export class RequestMap {
  private readonly byServerId = new Map<number, PendingBrowserRequest>();
  /** `${generation}|${idKey(browserId)}` -> server id, for `$/cancelRequest` translation. */
  private readonly byBrowserId = new Map<string, number>();
  private trackedBytes = 0;

  constructor(private readonly limits: RequestLimits = DEFAULT_REQUEST_LIMITS) {}

  /** Checks the bounds and records the request; the caller forwards it under `serverId`. */
  track(
    generation: number,
    browserId: JsonRpcId,
    method: string,
    serverId: number,
    now: number,
  ): { ok: true; entry: PendingBrowserRequest } | { ok: false; refusal: TrackRefusal } {
    const idSize = idBytes(browserId);
    if (idSize > this.limits.maxIdBytes) return { ok: false, refusal: 'id_too_large' };
    if (this.byServerId.size >= this.limits.maxPending) return { ok: false, refusal: 'too_many_pending' };
    const bytes = idSize + utf8Length(method) + ENTRY_OVERHEAD_BYTES;
    if (this.trackedBytes + bytes > this.limits.maxTrackedBytes) return { ok: false, refusal: 'tracked_state_full' };
    const key = browserKey(generation, browserId);
    if (this.byBrowserId.has(key)) return { ok: false, refusal: 'duplicate_id' };
    const entry: PendingBrowserRequest = { serverId, browserId, generation, method, startedAt: now, bytes };
    this.byServerId.set(serverId, entry);
    this.byBrowserId.set(key, serverId);
    this.trackedBytes += bytes;
    return { ok: true, entry };
  }

  /** The server-facing id of a browser request still pending in `generation`. */
  serverIdFor(generation: number, browserId: JsonRpcId): number | undefined {
    return this.byBrowserId.get(browserKey(generation, browserId));
  }

  /** Removes and returns the entry a server reply (or a timeout) settles. */
  take(serverId: number): PendingBrowserRequest | undefined {
    const entry = this.byServerId.get(serverId);
    if (!entry) return undefined;
    this.byServerId.delete(serverId);
    this.byBrowserId.delete(browserKey(entry.generation, entry.browserId));
    this.trackedBytes -= entry.bytes;
    return entry;
  }

  /** Removes and returns every entry of a generation that ended. */
  drainGeneration(generation: number): PendingBrowserRequest[] {
    const drained = [...this.byServerId.values()].filter((e) => e.generation === generation);
    for (const entry of drained) this.take(entry.serverId);
    return drained;
  }

  get size(): number {
    return this.byServerId.size;
  }

  get bytes(): number {
    return this.trackedBytes;
  }
}

function browserKey(generation: number, browserId: JsonRpcId): string {
  return `${generation}|${idKey(browserId)}`;
}
