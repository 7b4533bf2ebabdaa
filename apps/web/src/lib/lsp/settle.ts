import { after, type Clock, type Disposable } from '@kandev/kit';
import { CancelSource } from './cancellation.js';
import type { CancellationLike } from './jsonRpc.js';

/** What a settled request gives its caller: the answer, or "a newer request of the same key took over". */
export type Settled<T> = { kind: 'answered'; value: T } | { kind: 'superseded' };

const SUPERSEDED = { kind: 'superseded' } as const;

/** One caller waiting for its key to be quiet, with its own way of giving up. */
interface Caller {
  resolve(result: Settled<unknown> | Promise<Settled<unknown>>): void;
  token: CancellationLike | undefined;
  subscription: Disposable | undefined;
}

interface Waiting {
  fingerprint: string;
  timer: Disposable;
  /** Everyone who asked for exactly this (an editor's folding and its sticky scroll ask alike). */
  callers: Set<Caller>;
}

interface InFlight {
  fingerprint: string;
  source: CancelSource;
  promise: Promise<Settled<unknown>>;
  /** Callers still interested; the request is cancelled when the last of them gives up. */
  interested: number;
}

interface Slot {
  waiting?: Waiting;
  inflight?: InFlight;
  answered?: { fingerprint: string; value: unknown };
  /** How long the server took over this key's last answered requests (ms, newest last). */
  recentMs?: number[];
}

/** A key waits at least as long as its slowest recent answer took, up to this. */
export const MAX_SETTLE_MS = 1_500;
const RECENT_ANSWERS = 3;

/**
 * The wait of a key: its kind's own, or longer where the server's recent answers of this key took
 * longer (the outline of a 40,000-line file takes seconds). Asking again sooner than the server
 * can answer only queues work behind the request a person is waiting for: a request the editor
 * makes on its own that is cancelled once started still costs the server most of its time.
 */
export function settleDelay(baseMs: number, recentMs: readonly number[] | undefined): number {
  const slowest = Math.max(0, ...(recentMs ?? []));
  return Math.max(baseMs, Math.min(MAX_SETTLE_MS, slowest));
}

/**
 * Requests the editor makes on its own (code actions, highlights, semantic tokens, symbols,
 * folding, inlay hints, diagnostic pulls) go out when their key has been quiet for a moment, not
 * on every keystroke or caret move:
 *
 * - a call waits `delayMs` on the clock; a newer call of the same key in the meantime supersedes it
 *   (it resolves `superseded` at once) and a request of that key still in flight is cancelled, which
 *   sends `$/cancelRequest`;
 * - a call whose fingerprint (the request's params and the document version) equals the last
 *   answered one of its key gets that answer back and sends nothing: a caret resting in a file, or a
 *   view asking again for what it already has, costs the server nothing;
 * - a call equal to one still waiting, or to the request in flight, joins it instead of sending a
 *   second one (two views of one editor asking alike must both get the answer).
 *
 * Keys are per document and kind (`keyOf`), so one document's typing never delays another's. One
 * instance per connection generation; disposing it cancels everything of it.
 */
export class SettledRequests implements Disposable {
  private readonly slots = new Map<string, Slot>();
  private disposed = false;

  constructor(private readonly clock: Clock) {}

  request<T>(
    key: string,
    fingerprint: string,
    delayMs: number,
    token: CancellationLike | undefined,
    send: (token: CancellationLike) => Promise<T>,
  ): Promise<Settled<T>> {
    if (this.disposed || token?.isCancellationRequested) return Promise.resolve(SUPERSEDED);
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = {}));
    if (slot.answered?.fingerprint === fingerprint) return Promise.resolve({ kind: 'answered', value: slot.answered.value as T });
    if (slot.inflight?.fingerprint === fingerprint) return this.join(slot.inflight, token) as Promise<Settled<T>>;
    if (slot.waiting?.fingerprint === fingerprint) return this.wait(slot, slot.waiting, token) as Promise<Settled<T>>;
    this.supersede(slot);
    const current = slot;
    const waiting: Waiting = {
      fingerprint,
      callers: new Set(),
      timer: after(this.clock, settleDelay(delayMs, slot.recentMs), () => {
        if (current.waiting === waiting) current.waiting = undefined;
        const callers = [...waiting.callers];
        waiting.callers.clear();
        // The first caller starts the request; the others join it, each with its own token.
        for (const caller of callers) {
          caller.subscription?.dispose();
          caller.resolve(this.start(key, current, fingerprint, caller.token, send));
        }
      }),
    };
    current.waiting = waiting;
    return this.wait(current, waiting, token) as Promise<Settled<T>>;
  }

  /** Adds a caller to the wait; its token giving up settles it alone, and the last one ends the wait. */
  private wait(slot: Slot, waiting: Waiting, token: CancellationLike | undefined): Promise<Settled<unknown>> {
    return new Promise((resolve) => {
      const caller: Caller = { resolve, token, subscription: undefined };
      caller.subscription = token?.onCancellationRequested(() => {
        if (!waiting.callers.delete(caller)) return;
        caller.subscription?.dispose();
        resolve(SUPERSEDED);
        if (waiting.callers.size > 0) return;
        waiting.timer.dispose();
        if (slot.waiting === waiting) slot.waiting = undefined;
      });
      waiting.callers.add(caller);
    });
  }

  /** A newer call of the key (another fingerprint): whoever waited for the old one gets `superseded`. */
  private supersede(slot: Slot): void {
    const waiting = slot.waiting;
    if (!waiting) return;
    slot.waiting = undefined;
    waiting.timer.dispose();
    for (const caller of waiting.callers) {
      caller.subscription?.dispose();
      caller.resolve(SUPERSEDED);
    }
    waiting.callers.clear();
  }

  private start<T>(
    key: string,
    slot: Slot,
    fingerprint: string,
    token: CancellationLike | undefined,
    send: (token: CancellationLike) => Promise<T>,
  ): Promise<Settled<T>> {
    if (this.disposed) return Promise.resolve(SUPERSEDED);
    if (slot.answered?.fingerprint === fingerprint) return Promise.resolve({ kind: 'answered', value: slot.answered.value as T });
    if (slot.inflight?.fingerprint === fingerprint) return this.join(slot.inflight, token) as Promise<Settled<T>>;
    slot.inflight?.source.cancel();
    const source = new CancelSource();
    const sentAt = this.clock.now();
    const inflight: InFlight = {
      fingerprint,
      source,
      interested: 0,
      promise: send(source.token).then(
        (value): Settled<unknown> => {
          if (slot.inflight === inflight) slot.inflight = undefined;
          if (source.token.isCancellationRequested || this.disposed) return SUPERSEDED;
          slot.recentMs = [...(slot.recentMs ?? []), this.clock.now() - sentAt].slice(-RECENT_ANSWERS);
          if (this.slots.get(key) === slot) slot.answered = { fingerprint, value };
          return { kind: 'answered', value };
        },
        (): Settled<unknown> => {
          if (slot.inflight === inflight) slot.inflight = undefined;
          return SUPERSEDED;
        },
      ),
    };
    slot.inflight = inflight;
    return this.join(inflight, token) as Promise<Settled<T>>;
  }

  private join(inflight: InFlight, token: CancellationLike | undefined): Promise<Settled<unknown>> {
    inflight.interested++;
    let gaveUp = false;
    const subscription = token?.onCancellationRequested(() => {
      if (gaveUp) return;
      gaveUp = true;
      if (--inflight.interested === 0) inflight.source.cancel();
    });
    return inflight.promise.then((result) => {
      subscription?.dispose();
      if (!gaveUp) inflight.interested--;
      return gaveUp ? SUPERSEDED : result;
    });
  }

  /**
   * Forgets the answers of keys starting with `prefix` (a document closed, a server refresh): the
   * next call asks. What the answers cost is kept (a refresh does not make the server faster); a
   * key that knows nothing more goes.
   */
  forget(prefix: string): void {
    for (const [key, slot] of this.slots) {
      if (!key.startsWith(prefix)) continue;
      slot.answered = undefined;
      if (!slot.waiting && !slot.inflight && !slot.recentMs) this.slots.delete(key);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const slot of this.slots.values()) {
      this.supersede(slot);
      slot.inflight?.source.cancel();
    }
    this.slots.clear();
  }
}

/** The key of one kind of request for one document (`forget(keyPrefix(path))` clears a document). */
export function settleKey(path: string, kind: string): string {
  return `${path}\u0000${kind}`;
}

export function settlePrefix(path: string): string {
  return `${path}\u0000`;
}

/**
 * How long each kind waits for quiet. Caret-driven requests (code actions, highlights) follow the
 * caret once it rests; text-driven ones (tokens, symbols, folding, hints, diagnostics) once typing
 * pauses, long enough that a word typed at a normal pace asks once, short enough to feel live.
 */
export const SETTLE_MS = {
  caret: 150,
  text: 300,
} as const;
