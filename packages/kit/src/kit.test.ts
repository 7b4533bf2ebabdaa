import { describe, expect, it, vi } from 'vitest';
import { DisposableStore, Emitter, ManualClock, after, deadline, toDisposable } from './index.js';

describe('Emitter', () => {
  it('a throwing listener is reported and the listeners after it still run', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((e) => errors.push(e));
    const seen: number[] = [];
    emitter.event(() => {
      throw new Error('boom');
    });
    emitter.event((v) => seen.push(v));
    emitter.fire(7);
    expect(seen).toEqual([7]);
    expect(errors).toHaveLength(1);
  });

  it('registration returns a Disposable that unregisters; a listener removed mid-fire is not called', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    const second = { d: toDisposable(() => undefined) };
    emitter.event(() => second.d.dispose());
    second.d = emitter.event((v) => seen.push(v));
    emitter.fire('a');
    expect(seen).toEqual([]);
    expect(emitter.listenerCount).toBe(1);
  });

  it('a listener added during fire sees the next event only; disposed emitters accept nothing', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    emitter.event(() => {
      if (seen.length === 0) emitter.event((v) => seen.push(v));
    });
    emitter.fire(1);
    expect(seen).toEqual([]);
    emitter.fire(2);
    expect(seen).toEqual([2]);
    emitter.dispose();
    emitter.event((v) => seen.push(v));
    emitter.fire(3);
    expect(seen).toEqual([2]);
  });
});

describe('DisposableStore', () => {
  it('disposes newest first, every item even when one throws, then rethrows the first error', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('a')));
    store.add(
      toDisposable(() => {
        order.push('b');
        throw new Error('b failed');
      }),
    );
    store.add(toDisposable(() => order.push('c')));
    expect(() => store.dispose()).toThrow('b failed');
    expect(order).toEqual(['c', 'b', 'a']);
    const late = vi.fn();
    store.add(toDisposable(late));
    expect(late).toHaveBeenCalledOnce();
  });
});

describe('ManualClock', () => {
  it('fires due timers in time order and cancels disposed ones', () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    after(clock, 200, () => fired.push('late'));
    after(clock, 100, () => fired.push('early'));
    const cancelled = after(clock, 150, () => fired.push('cancelled'));
    cancelled.dispose();
    clock.advance(199);
    expect(fired).toEqual(['early']);
    expect(clock.now()).toBe(199);
    clock.advance(1);
    expect(fired).toEqual(['early', 'late']);
    expect(clock.pending).toBe(0);
  });

  it('every() repeats until disposed, at the clock time of each tick', () => {
    const clock = new ManualClock(0);
    const ticks: number[] = [];
    const ticking = clock.every(60_000, () => ticks.push(clock.now()));
    clock.advance(180_000);
    expect(ticks).toEqual([60_000, 120_000, 180_000]);
    ticking.dispose();
    clock.advance(60_000);
    expect(ticks).toHaveLength(3);
  });
});

describe('deadline', () => {
  it('settles when its moment comes on the clock, and never once disposed', async () => {
    const clock = new ManualClock(0);
    const reached: string[] = [];
    const due = deadline(clock, 1_000);
    const cancelled = deadline(clock, 500);
    void due.reached.then(() => reached.push('due'));
    void cancelled.reached.then(() => reached.push('cancelled'));
    cancelled.dispose();
    clock.advance(999);
    await Promise.resolve();
    expect(reached).toEqual([]);
    clock.advance(1);
    await due.reached;
    await Promise.resolve();
    expect(reached).toEqual(['due']);
    expect(clock.pending).toBe(0);
  });
});
