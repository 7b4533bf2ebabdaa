import type { ProgressItemSnapshot, ProgressSnapshot } from './frames.js';
import { isRecord } from './records.js';

/**
 * Work-done progress (`$/progress` begin/report/end) by token: the one set of rules the broker
 * (which retains it for a resuming browser) and the web client (which shows it) both apply.
 * - Tokens are strings or numbers, and `1` and `"1"` are different tokens.
 * - A `begin` is accepted for any token: a resumed browser never saw the `create` the broker answered.
 * - Bounded, because a server controls it: at most 64 active tokens (a `begin` for another one is
 *   ignored), titles and messages cut at 4 KiB.
 * - A percentage is shown as a server sent it, as a whole number in 0..100, never averaged or made up.
 * - Partial-result progress (a value that is not a begin/report/end object) is ignored.
 * Pure: the caller passes the time; published snapshots are copies and never change afterwards.
 */
export const MAX_TRACKED_PROGRESS_TOKENS = 64;
export const MAX_PROGRESS_TEXT_CHARS = 4096;

type Token = string | number;

export class ProgressTracker {
  private readonly active = new Map<string, ProgressItemSnapshot>();
  private lastEnded: ProgressSnapshot['lastEnded'];

  /** `seed`: a snapshot from the wire (a resumed `ready`), taken defensively under the same bounds. */
  constructor(seed?: ProgressSnapshot) {
    const items: unknown[] = Array.isArray(seed?.active) ? seed.active : [];
    for (const item of items) {
      if (!isSeedItem(item) || this.active.size >= MAX_TRACKED_PROGRESS_TOKENS) continue;
      const copy: ProgressItemSnapshot = { token: item.token, title: cut(item.title), startedAt: item.startedAt };
      setDetails(copy, item.message, item.percentage);
      this.active.set(keyOf(item.token), copy);
    }
    const ended: unknown = seed?.lastEnded;
    if (isRecord(ended) && typeof ended.title === 'string' && typeof ended.endedAt === 'number')
      this.lastEnded = { title: cut(ended.title), endedAt: ended.endedAt };
  }

  /** Applies one `$/progress` notification's params at time `now`; returns whether the snapshot changed. */
  apply(params: unknown, now: number): boolean {
    if (!isRecord(params) || !isRecord(params.value)) return false;
    const { token, value } = params;
    if (typeof token !== 'string' && typeof token !== 'number') return false;
    const key = keyOf(token);
    if (value.kind === 'begin') {
      if (!this.active.has(key) && this.active.size >= MAX_TRACKED_PROGRESS_TOKENS) return false;
      const item: ProgressItemSnapshot = { token, title: typeof value.title === 'string' ? cut(value.title) : '', startedAt: now };
      setDetails(item, value.message, value.percentage);
      this.active.delete(key);
      this.active.set(key, item);
      return true;
    }
    const item = this.active.get(key);
    if (!item) return false;
    if (value.kind === 'report') {
      // Replace, never mutate: a snapshot already handed out stays as it was.
      const next: ProgressItemSnapshot = { ...item };
      setDetails(next, value.message, value.percentage);
      this.active.set(key, next);
      return true;
    }
    if (value.kind === 'end') {
      this.active.delete(key);
      this.lastEnded = { title: item.title, endedAt: now };
      return true;
    }
    return false;
  }

  /** Active items oldest first (ties keep arrival order), and the last one that ended. Copies. */
  snapshot(): ProgressSnapshot {
    const out: ProgressSnapshot = { active: [...this.active.values()].map((item) => ({ ...item })).sort((a, b) => a.startedAt - b.startedAt) };
    if (this.lastEnded) out.lastEnded = { ...this.lastEnded };
    return out;
  }
}

/** A server's percentage as shown: a whole number in 0..100 (a non-number from a bad seed is 0). */
export function clampPercentage(p: number): number {
  if (!Number.isFinite(p)) return 0;
  return Math.min(100, Math.max(0, Math.round(p)));
}

function keyOf(token: Token): string {
  return `${typeof token}:${token}`;
}

function cut(text: string): string {
  return text.slice(0, MAX_PROGRESS_TEXT_CHARS);
}

function setDetails(item: ProgressItemSnapshot, message: unknown, percentage: unknown): void {
  if (typeof message === 'string') item.message = cut(message);
  if (typeof percentage === 'number' && Number.isFinite(percentage)) item.percentage = clampPercentage(percentage);
}

function isSeedItem(item: unknown): item is ProgressItemSnapshot {
  return (
    isRecord(item) && (typeof item.token === 'string' || typeof item.token === 'number') && typeof item.title === 'string' && typeof item.startedAt === 'number'
  );
}
