/**
 * Gathers path changes for one short window and hands them over at its end, one entry per path:
 * a file written a hundred times in a window is one `changed`; created then deleted is nothing.
 * Memory is bounded: past `maxPaths` distinct paths the window's changes are dropped and the
 * window ends as an overflow instead (the consumer reloads what it shows).
 */
import { after, type Clock, type Disposable } from '@kandev/kit';

export type ChangeKind = 'created' | 'changed' | 'deleted';

/** One window's result: the changes in first-seen order, or `overflow` when it held too many. */
export type CoalescedWindow = { overflow: false; changes: Map<string, ChangeKind> } | { overflow: true };

export interface CoalescerOptions {
  clock: Clock;
  windowMs: number;
  maxPaths: number;
  onWindow: (window: CoalescedWindow) => void;
}

/** What a second change of the same path in one window leaves (undefined: nothing happened). */
export function combine(before: ChangeKind, next: ChangeKind): ChangeKind | undefined {
  if (before === 'created') return next === 'deleted' ? undefined : 'created';
  if (before === 'deleted') return next === 'deleted' ? 'deleted' : 'changed';
  return next === 'deleted' ? 'deleted' : 'changed';
}

export class ChangeCoalescer implements Disposable {
  private pending = new Map<string, ChangeKind>();
  private overflowed = false;
  private timer: Disposable | undefined;

  constructor(private readonly options: CoalescerOptions) {}

  add(path: string, kind: ChangeKind): void {
    if (!this.overflowed) {
      const before = this.pending.get(path);
      if (before === undefined) {
        this.pending.set(path, kind);
        if (this.pending.size > this.options.maxPaths) {
          this.overflowed = true;
          this.pending = new Map();
        }
      } else {
        const combined = combine(before, kind);
        if (combined === undefined) this.pending.delete(path);
        else this.pending.set(path, combined);
      }
    }
    this.timer ??= after(this.options.clock, this.options.windowMs, () => this.flush());
  }

  /** Ends the window now (the timer's job; also for a consumer leaving). */
  flush(): void {
    this.timer?.dispose();
    this.timer = undefined;
    const window: CoalescedWindow = this.overflowed ? { overflow: true } : { overflow: false, changes: this.pending };
    this.pending = new Map();
    this.overflowed = false;
    if (window.overflow || window.changes.size > 0) this.options.onWindow(window);
  }

  dispose(): void {
    this.timer?.dispose();
    this.timer = undefined;
    this.pending = new Map();
  }
}
