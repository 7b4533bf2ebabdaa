import { ManualClock } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { ChangeCoalescer, combine, type CoalescedWindow } from './coalescer.js';

function coalescer(maxPaths = 100) {
  const clock = new ManualClock();
  const windows: CoalescedWindow[] = [];
  const c = new ChangeCoalescer({ clock, windowMs: 50, maxPaths, onWindow: (w) => windows.push(w) });
  return { clock, windows, c };
}

describe('ChangeCoalescer', () => {
  it('hands over one entry per path at the end of the window, in first-seen order', () => {
    const { clock, windows, c } = coalescer();
    for (let i = 0; i < 100; i++) c.add('a.ts', 'changed');
    c.add('b.ts', 'created');
    c.add('b.ts', 'changed');
    clock.advance(49);
    expect(windows).toEqual([]);
    clock.advance(1);
    expect(windows).toHaveLength(1);
    const window = windows[0] as Extract<CoalescedWindow, { overflow: false }>;
    expect([...window.changes]).toEqual([
      ['a.ts', 'changed'],
      ['b.ts', 'created'],
    ]);
  });

  it('created then deleted within a window is nothing; deleted then created is a change', () => {
    expect(combine('created', 'deleted')).toBeUndefined();
    expect(combine('deleted', 'created')).toBe('changed');
    expect(combine('changed', 'deleted')).toBe('deleted');
    const { clock, windows, c } = coalescer();
    c.add('tmp.swp', 'created');
    c.add('tmp.swp', 'deleted');
    clock.advance(50);
    expect(windows).toEqual([]);
  });

  it('a burst of 10,000 paths becomes one overflow per window, holding no path beyond the bound', () => {
    const { clock, windows, c } = coalescer(2_000);
    for (let i = 0; i < 10_000; i++) c.add(`node_modules/p${i}/index.js`, 'created');
    clock.advance(50);
    expect(windows).toEqual([{ overflow: true }]);
    // The next window starts clean.
    c.add('a.ts', 'changed');
    clock.advance(50);
    expect(windows[1]).toMatchObject({ overflow: false });
  });

  it('a path limit of exactly the window size still fits', () => {
    const { clock, windows, c } = coalescer(3);
    c.add('a', 'changed');
    c.add('b', 'changed');
    c.add('c', 'changed');
    clock.advance(50);
    expect(windows[0]).toMatchObject({ overflow: false });
  });
});
