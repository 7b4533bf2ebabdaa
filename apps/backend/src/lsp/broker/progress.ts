/**
 * Active and last-ended work-done progress (`$/progress` with begin/report/end), by token, so a
 * resuming browser reaches ready with current progress. Partial-result progress is out of scope.
 * Bounded: at most 64 active tokens (later ones are not tracked), texts cut at 4 KiB.
 */
import type { ProgressItemSnapshot, ProgressSnapshot } from '@kandev/protocol';
import { isRecord } from './jsonrpc.js';

export const MAX_TRACKED_PROGRESS_TOKENS = 64;
export const MAX_PROGRESS_TEXT_CHARS = 4096;

export class ProgressTracker {
  private readonly active = new Map<string, ProgressItemSnapshot>();
  private lastEnded: ProgressSnapshot['lastEnded'];

  /** Applies one `$/progress` notification's params; ignores anything that is not work-done. */
  apply(params: unknown, now: number): void {
    if (!isRecord(params) || !isRecord(params.value)) return;
    const token = params.token;
    if (typeof token !== 'string' && typeof token !== 'number') return;
    const key = `${typeof token}:${token}`;
    const value = params.value;
    switch (value.kind) {
      case 'begin': {
        if (!this.active.has(key) && this.active.size >= MAX_TRACKED_PROGRESS_TOKENS) return;
        const item: ProgressItemSnapshot = { token, title: text(value.title) ?? '', startedAt: now };
        const message = text(value.message);
        if (message !== undefined) item.message = message;
        const percentage = percent(value.percentage);
        if (percentage !== undefined) item.percentage = percentage;
        this.active.delete(key);
        this.active.set(key, item);
        return;
      }
      case 'report': {
        const item = this.active.get(key);
        if (!item) return;
        const message = text(value.message);
        if (message !== undefined) item.message = message;
        const percentage = percent(value.percentage);
        if (percentage !== undefined) item.percentage = percentage;
        return;
      }
      case 'end': {
        const item = this.active.get(key);
        if (!item) return;
        this.active.delete(key);
        this.lastEnded = { title: item.title, endedAt: now };
        return;
      }
      default:
        return;
    }
  }

  /** Oldest active item first. A copy: later changes do not leak into a sent frame. */
  snapshot(): ProgressSnapshot {
    const snapshot: ProgressSnapshot = { active: [...this.active.values()].map((item) => ({ ...item })) };
    if (this.lastEnded) snapshot.lastEnded = { ...this.lastEnded };
    return snapshot;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.slice(0, MAX_PROGRESS_TEXT_CHARS) : undefined;
}

function percent(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(100, Math.max(0, value));
}
