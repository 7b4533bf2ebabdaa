import type { ProgressItemSnapshot, ProgressSnapshot } from '@kandev/protocol';

export const EMPTY_PROGRESS: ProgressSnapshot = Object.freeze({ active: [] as ProgressItemSnapshot[] }) as ProgressSnapshot;

/**
 * The token this client offers in `initialize` (workDoneToken), so a server can report the work
 * of its initialization (Kotlin's Gradle import, say) before it answers (S42).
 */
export const INITIALIZE_PROGRESS_TOKEN = 'kandev/initialize';

type Token = string | number;

/**
 * Work-done progress of one connection generation ($/progress begin/report/end). Tokens are
 * strings or numbers (`1` and `"1"` are different tokens); they come from
 * `window/workDoneProgress/create` or from a request's workDoneToken (initialize). A `begin` is
 * accepted for any token, because a resumed browser never saw the `create` the broker answered.
 * A replacement generation starts from its own tracker, so no stale progress survives a stop,
 * crash or retry (S46).
 */
export class ProgressTracker {
  private readonly active = new Map<Token, ProgressItemSnapshot>();
  private lastEnded: ProgressSnapshot['lastEnded'];

  constructor(
    private readonly now: () => number = Date.now,
    seed?: ProgressSnapshot,
  ) {
    const items = Array.isArray(seed?.active) ? seed.active : [];
    for (const item of items) {
      if (!isSeedItem(item)) continue;
      const copy: ProgressItemSnapshot = { token: item.token, title: item.title, startedAt: item.startedAt };
      if (typeof item.message === 'string') copy.message = item.message;
      if (typeof item.percentage === 'number') copy.percentage = clampPercentage(item.percentage);
      this.active.set(item.token, copy);
    }
    const ended = seed?.lastEnded;
    if (ended && typeof ended.title === 'string' && typeof ended.endedAt === 'number') this.lastEnded = { title: ended.title, endedAt: ended.endedAt };
  }

  /** Feeds one `$/progress` params object; returns whether the snapshot changed. */
  update(params: unknown): boolean {
    if (typeof params !== 'object' || params === null) return false;
    const { token, value } = params as { token?: unknown; value?: unknown };
    if ((typeof token !== 'string' && typeof token !== 'number') || typeof value !== 'object' || value === null) return false;
    const v = value as { kind?: unknown; title?: unknown; message?: unknown; percentage?: unknown };
    if (v.kind === 'begin') {
      const item: ProgressItemSnapshot = { token, title: typeof v.title === 'string' ? v.title : '', startedAt: this.now() };
      if (typeof v.message === 'string') item.message = v.message;
      if (typeof v.percentage === 'number') item.percentage = clampPercentage(v.percentage);
      this.active.delete(token);
      this.active.set(token, item);
      return true;
    }
    const item = this.active.get(token);
    if (!item) return false;
    if (v.kind === 'report') {
      // Replace, never mutate: a published snapshot stays as it was.
      const next: ProgressItemSnapshot = { ...item };
      if (typeof v.message === 'string') next.message = v.message;
      if (typeof v.percentage === 'number') next.percentage = clampPercentage(v.percentage);
      this.active.set(token, next);
      return true;
    }
    if (v.kind === 'end') {
      this.active.delete(token);
      this.lastEnded = { title: item.title, endedAt: this.now() };
      return true;
    }
    return false;
  }

  /** Active items oldest first (ties keep arrival order), and the last one that ended. */
  snapshot(): ProgressSnapshot {
    const out: ProgressSnapshot = { active: [...this.active.values()].map((i) => ({ ...i })).sort((a, b) => a.startedAt - b.startedAt) };
    if (this.lastEnded) out.lastEnded = { ...this.lastEnded };
    return out;
  }
}

/** A server's percentage as shown: a whole number in 0..100; never averaged across tokens. */
export function clampPercentage(p: number): number {
  if (!Number.isFinite(p)) return 0;
  return Math.min(100, Math.max(0, Math.round(p)));
}

/**
 * What a status surface says about server-reported work: the oldest active item and how many
 * others are active (S44); that reported work finished, which is all a server told us (S45); or
 * that nothing is reported (S47). Never an estimate, never "indexed".
 */
export type ProgressSummary =
  | { kind: 'active'; item: ProgressItemSnapshot; others: number }
  | { kind: 'finished'; title: string; endedAt: number }
  | { kind: 'none' };

export function summarizeProgress(snapshot: ProgressSnapshot): ProgressSummary {
  const [oldest, ...others] = snapshot.active;
  if (oldest) return { kind: 'active', item: oldest, others: others.length };
  if (snapshot.lastEnded) return { kind: 'finished', title: snapshot.lastEnded.title, endedAt: snapshot.lastEnded.endedAt };
  return { kind: 'none' };
}

function isSeedItem(item: unknown): item is ProgressItemSnapshot {
  if (typeof item !== 'object' || item === null) return false;
  const i = item as Record<string, unknown>;
  return (typeof i.token === 'string' || typeof i.token === 'number') && typeof i.title === 'string' && typeof i.startedAt === 'number';
}
