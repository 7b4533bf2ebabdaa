import type { ProgressItemSnapshot, ProgressSnapshot } from '@kandev/protocol';

/**
 * Work-done progress of one connection generation ($/progress begin/report/end). A replacement
 * generation starts from its own tracker, so no stale progress survives a stop or retry (S46).
 */
export class ProgressTracker {
  private readonly active = new Map<string | number, ProgressItemSnapshot>();
  private lastEnded: ProgressSnapshot['lastEnded'];

  constructor(private readonly now: () => number = Date.now, seed?: ProgressSnapshot) {
    for (const item of seed?.active ?? []) this.active.set(item.token, { ...item });
    this.lastEnded = seed?.lastEnded;
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
      this.active.set(token, item);
      return true;
    }
    const item = this.active.get(token);
    if (!item) return false;
    if (v.kind === 'report') {
      if (typeof v.message === 'string') item.message = v.message;
      if (typeof v.percentage === 'number') item.percentage = clampPercentage(v.percentage);
      return true;
    }
    if (v.kind === 'end') {
      this.active.delete(token);
      this.lastEnded = { title: item.title, endedAt: this.now() };
      return true;
    }
    return false;
  }

  snapshot(): ProgressSnapshot {
    const out: ProgressSnapshot = { active: [...this.active.values()].map((i) => ({ ...i })).sort((a, b) => a.startedAt - b.startedAt) };
    if (this.lastEnded) out.lastEnded = { ...this.lastEnded };
    return out;
  }
}

export function clampPercentage(p: number): number {
  if (!Number.isFinite(p)) return 0;
  return Math.min(100, Math.max(0, Math.round(p)));
}
