import { describe, expect, it } from 'vitest';
import { clampPercentage, MAX_PROGRESS_TEXT_CHARS, MAX_TRACKED_PROGRESS_TOKENS, ProgressTracker } from './progress.js';

const p = (token: string | number, value: Record<string, unknown>) => ({ token, value });

describe('ProgressTracker', () => {
  it('tracks begin/report/end per token, oldest first, whole percentages, and remembers the last ended', () => {
    const t = new ProgressTracker();
    expect(t.apply(p('a', { kind: 'begin', title: 'Indexing', percentage: 0 }), 100)).toBe(true);
    t.apply(p(2, { kind: 'begin', title: 'Loading', message: 'pkg' }), 200);
    t.apply(p('a', { kind: 'report', message: '3/10', percentage: 33.6 }), 300);
    expect(t.snapshot()).toEqual({
      active: [
        { token: 'a', title: 'Indexing', message: '3/10', percentage: 34, startedAt: 100 },
        { token: 2, title: 'Loading', message: 'pkg', startedAt: 200 },
      ],
    });
    t.apply(p('a', { kind: 'end' }), 400);
    expect(t.snapshot()).toEqual({ active: [{ token: 2, title: 'Loading', message: 'pkg', startedAt: 200 }], lastEnded: { title: 'Indexing', endedAt: 400 } });
  });

  it('keeps a number token and a string token apart; ignores partial results, unknown tokens and malformed params', () => {
    const t = new ProgressTracker();
    t.apply(p(1, { kind: 'begin', title: 'n' }), 1);
    expect(t.apply(p('1', { kind: 'end' }), 2)).toBe(false);
    expect(t.apply({ token: 'x', value: [1, 2] }, 3)).toBe(false);
    expect(t.apply(p('never', { kind: 'report', message: 'x' }), 4)).toBe(false);
    const missing: unknown = null;
    expect(t.apply(missing, 5)).toBe(false);
    expect(t.apply({ token: { bad: true }, value: { kind: 'begin', title: 'x' } }, 6)).toBe(false);
    expect(t.snapshot().active.map((i) => i.token)).toEqual([1]);
  });

  it('bounds the active tokens (a later begin is ignored, a known token still updates) and the texts', () => {
    const t = new ProgressTracker();
    for (let i = 0; i < MAX_TRACKED_PROGRESS_TOKENS + 10; i++) t.apply(p(i, { kind: 'begin', title: `t${i}` }), i);
    expect(t.snapshot().active).toHaveLength(MAX_TRACKED_PROGRESS_TOKENS);
    expect(t.apply(p(0, { kind: 'begin', title: 'again' }), 100)).toBe(true);
    t.apply(p(1, { kind: 'report', message: 'm'.repeat(MAX_PROGRESS_TEXT_CHARS + 5) }), 101);
    expect(t.snapshot().active.find((i) => i.token === 1)?.message).toHaveLength(MAX_PROGRESS_TEXT_CHARS);
  });

  it('published snapshots never change afterwards', () => {
    const t = new ProgressTracker();
    t.apply(p('a', { kind: 'begin', title: 'x', percentage: 10 }), 1);
    const snap = t.snapshot();
    t.apply(p('a', { kind: 'report', message: 'later', percentage: 90 }), 2);
    expect(snap.active[0]).toEqual({ token: 'a', title: 'x', percentage: 10, startedAt: 1 });
  });

  it('takes a seed defensively, under the same bounds and rounding', () => {
    const seed = {
      active: [{ token: 't', title: 'T'.repeat(MAX_PROGRESS_TEXT_CHARS + 1), startedAt: 5, percentage: 250.2 }, { nonsense: true } as never],
      lastEnded: { title: 'Done', endedAt: 1 },
    };
    const snap = new ProgressTracker(seed).snapshot();
    expect(snap.active).toHaveLength(1);
    expect(snap.active[0]).toMatchObject({ token: 't', startedAt: 5, percentage: 100 });
    expect(snap.active[0]!.title).toHaveLength(MAX_PROGRESS_TEXT_CHARS);
    expect(snap.lastEnded).toEqual({ title: 'Done', endedAt: 1 });
    expect(new ProgressTracker({ active: 'garbage' } as never).snapshot()).toEqual({ active: [] });
  });

  it('clamps percentages to whole numbers in 0..100', () => {
    expect([clampPercentage(-1), clampPercentage(33.4), clampPercentage(101), clampPercentage(Number.NaN)]).toEqual([0, 33, 100, 0]);
  });
});
