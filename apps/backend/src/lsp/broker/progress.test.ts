import { describe, expect, it } from 'vitest';
import { MAX_TRACKED_PROGRESS_TOKENS, ProgressTracker } from './progress.js';

const p = (token: string | number, value: Record<string, unknown>) => ({ token, value });

describe('ProgressTracker', () => {
  it('tracks begin/report/end per token, oldest first, and remembers the last ended', () => {
    const t = new ProgressTracker();
    t.apply(p('a', { kind: 'begin', title: 'Indexing', percentage: 0 }), 100);
    t.apply(p(2, { kind: 'begin', title: 'Loading', message: 'pkg' }), 200);
    t.apply(p('a', { kind: 'report', message: '3/10', percentage: 130 }), 300);
    expect(t.snapshot()).toEqual({
      active: [
        { token: 'a', title: 'Indexing', message: '3/10', percentage: 100, startedAt: 100 },
        { token: 2, title: 'Loading', message: 'pkg', startedAt: 200 },
      ],
    });
    t.apply(p('a', { kind: 'end' }), 400);
    expect(t.snapshot()).toEqual({ active: [{ token: 2, title: 'Loading', message: 'pkg', startedAt: 200 }], lastEnded: { title: 'Indexing', endedAt: 400 } });
  });

  it('keeps a number token and a string token apart, ignores partial-result and unknown tokens', () => {
    const t = new ProgressTracker();
    t.apply(p(1, { kind: 'begin', title: 'n' }), 1);
    t.apply(p('1', { kind: 'end' }), 2);
    t.apply({ token: 'x', value: [1, 2] }, 3);
    t.apply(p('never', { kind: 'report', message: 'x' }), 4);
    expect(t.snapshot().active.map((i) => i.token)).toEqual([1]);
  });

  it('snapshots are copies', () => {
    const t = new ProgressTracker();
    t.apply(p('a', { kind: 'begin', title: 'x' }), 1);
    const snap = t.snapshot();
    t.apply(p('a', { kind: 'report', message: 'later' }), 2);
    expect(snap.active[0]?.message).toBeUndefined();
  });

  it('bounds the number of active tokens', () => {
    const t = new ProgressTracker();
    for (let i = 0; i < MAX_TRACKED_PROGRESS_TOKENS + 10; i++) t.apply(p(i, { kind: 'begin', title: `t${i}` }), i);
    expect(t.snapshot().active).toHaveLength(MAX_TRACKED_PROGRESS_TOKENS);
  });
});
