import { clampPercentage, ProgressTracker as SharedProgressTracker, type ProgressItemSnapshot, type ProgressSnapshot } from '@kandev/protocol';

export const EMPTY_PROGRESS: ProgressSnapshot = Object.freeze({ active: [] as ProgressItemSnapshot[] }) as ProgressSnapshot;

/**
 * The token this client offers in `initialize` (workDoneToken), so a server can report the work
 * of its initialization (Kotlin's Gradle import, say) before it answers (S42).
 */
export const INITIALIZE_PROGRESS_TOKEN = 'kandev/initialize';

/**
 * Work-done progress of one connection generation: packages/protocol's ProgressTracker (one set of
 * rules with the broker: bounds, rounding, token identity), on this client's clock. A replacement
 * generation starts from its own tracker, so no stale progress survives a stop, crash or retry (S46).
 */
export class ProgressTracker {
  private readonly tracker: SharedProgressTracker;

  constructor(
    private readonly now: () => number = Date.now,
    seed?: ProgressSnapshot,
  ) {
    this.tracker = new SharedProgressTracker(seed);
  }

  /** Feeds one `$/progress` params object; returns whether the snapshot changed. */
  update(params: unknown): boolean {
    return this.tracker.apply(params, this.now());
  }

  snapshot(): ProgressSnapshot {
    return this.tracker.snapshot();
  }
}

export { clampPercentage };

/**
 * What a status surface says about server-reported work: the oldest active item and how many
 * others are active (S44); that reported work finished, which is all a server told us (S45); or
 * that nothing is reported (S47). Never an estimate, never "indexed".
 */
export type ProgressSummary =
  { kind: 'active'; item: ProgressItemSnapshot; others: number } | { kind: 'finished'; title: string; endedAt: number } | { kind: 'none' };

export function summarizeProgress(snapshot: ProgressSnapshot): ProgressSummary {
  const [oldest, ...others] = snapshot.active;
  if (oldest) return { kind: 'active', item: oldest, others: others.length };
  if (snapshot.lastEnded) return { kind: 'finished', title: snapshot.lastEnded.title, endedAt: snapshot.lastEnded.endedAt };
  return { kind: 'none' };
}
