import { describe, expect, it } from 'vitest';
import { clampPercentage, ProgressTracker, summarizeProgress } from './progress.js';

function tracker() {
  let now = 0;
  const t = new ProgressTracker(() => now);
  return { t, at: (ms: number) => void (now = ms) };
}
const begin = (token: string | number, title: string, extra: Record<string, unknown> = {}) => ({ token, value: { kind: 'begin', title, ...extra } });
const report = (token: string | number, extra: Record<string, unknown>) => ({ token, value: { kind: 'report', ...extra } });
const end = (token: string | number) => ({ token, value: { kind: 'end' } });

describe('work-done progress', () => {
  it('S42 begin then report: the latest server message and the clamped percentage', () => {
    const { t, at } = tracker();
    at(1_000);
    t.update(begin('kandev/initialize', 'Importing Gradle project', { message: 'Resolving :app', percentage: 5 }));
    t.update(report('kandev/initialize', { message: 'Resolving :lib', percentage: 140 }));
    expect(t.snapshot().active).toEqual([
      { token: 'kandev/initialize', title: 'Importing Gradle project', message: 'Resolving :lib', percentage: 100, startedAt: 1_000 },
    ]);
    t.update(report('kandev/initialize', { percentage: -3 }));
    expect(t.snapshot().active[0]).toMatchObject({ message: 'Resolving :lib', percentage: 0 });
  });

  it('S43 an indeterminate item never gets a fabricated percentage', () => {
    const { t } = tracker();
    t.update(begin(7, 'Indexing'));
    t.update(report(7, { message: 'src/a.kt' }));
    const item = t.snapshot().active[0]!;
    expect(item).not.toHaveProperty('percentage');
    expect(summarizeProgress(t.snapshot())).toEqual({ kind: 'active', item, others: 0 });
  });

  it('S44 two tokens (a number and a string): only the reporting or ending token changes; the oldest plus the count of others is shown', () => {
    const { t, at } = tracker();
    at(10);
    t.update(begin(1, 'Scanning', { percentage: 10 }));
    at(20);
    t.update(begin('b', 'Building index', { percentage: 30 }));
    t.update(begin('1', 'A string token is a different token'));
    expect(summarizeProgress(t.snapshot())).toMatchObject({ kind: 'active', item: { token: 1, title: 'Scanning', percentage: 10 }, others: 2 });
    t.update(end('1'));
    t.update(report('b', { message: 'b reported', percentage: 60 }));
    expect(summarizeProgress(t.snapshot())).toMatchObject({ kind: 'active', item: { token: 1, percentage: 10 }, others: 1 });
    expect(t.snapshot().active[0]).not.toHaveProperty('message');
    t.update(end(1));
    expect(summarizeProgress(t.snapshot())).toMatchObject({ kind: 'active', item: { token: 'b', message: 'b reported', percentage: 60 }, others: 0 });
  });

  it('percentages are per item, never averaged across tokens', () => {
    const { t, at } = tracker();
    t.update(begin('a', 'A', { percentage: 90 }));
    at(5);
    t.update(begin('b', 'B', { percentage: 10 }));
    const summary = summarizeProgress(t.snapshot());
    expect(summary).toMatchObject({ kind: 'active', item: { percentage: 90 }, others: 1 });
  });

  it('S45 when the final token ends the summary says work finished (its title), and S47 "none" before anything was reported', () => {
    const { t, at } = tracker();
    expect(summarizeProgress(t.snapshot())).toEqual({ kind: 'none' });
    t.update(begin('x', 'Indexing'));
    at(99);
    t.update(end('x'));
    expect(summarizeProgress(t.snapshot())).toEqual({ kind: 'finished', title: 'Indexing', endedAt: 99 });
  });

  it('ignores report/end of unknown tokens, partial-result values and malformed params', () => {
    const { t } = tracker();
    expect(t.update(report('nope', { percentage: 50 }))).toBe(false);
    expect(t.update(end('nope'))).toBe(false);
    expect(t.update({ token: 'p', value: [{ partial: 'result' }] })).toBe(false);
    expect(t.update({ token: { bad: true }, value: { kind: 'begin', title: 'x' } })).toBe(false);
    expect(t.update(null)).toBe(false);
    expect(t.snapshot()).toEqual({ active: [] });
  });

  it('a resumed snapshot seeds the tracker defensively (C02), published snapshots never change afterwards', () => {
    const seeded = new ProgressTracker(() => 0, {
      active: [{ token: 't', title: 'Indexing', startedAt: 5, percentage: 250 }, { nonsense: true } as never],
      lastEnded: { title: 'Done', endedAt: 1 },
    });
    const first = seeded.snapshot();
    expect(first).toEqual({ active: [{ token: 't', title: 'Indexing', startedAt: 5, percentage: 100 }], lastEnded: { title: 'Done', endedAt: 1 } });
    seeded.update(report('t', { percentage: 50 }));
    expect(first.active[0]!.percentage).toBe(100);
    expect(new ProgressTracker(() => 0, { active: 'garbage' } as never).snapshot()).toEqual({ active: [] });
  });

  it('clamps to whole numbers in 0..100', () => {
    expect([clampPercentage(-1), clampPercentage(33.4), clampPercentage(101), clampPercentage(Number.NaN)]).toEqual([0, 33, 100, 0]);
  });
});
