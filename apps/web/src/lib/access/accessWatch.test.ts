import { describe, expect, it } from 'vitest';
import { AccessWatch, type AccessCheck } from './accessWatch.js';

describe('AccessWatch', () => {
  it('asks once for every socket waiting at the same time, and a refusal signs the page out for good', async () => {
    let asked = 0;
    let answer: AccessCheck = 'refused';
    const watch = new AccessWatch(async () => (asked++, answer));
    const states: string[] = [];
    watch.onDidChange((s) => states.push(s));
    expect(await Promise.all([watch.admit(), watch.admit(), watch.admit()])).toEqual([false, false, false]);
    expect(asked).toBe(1);
    expect(watch.state).toBe('signed-out');
    // Signed out: nobody asks the backend again until the person does.
    expect(await watch.admit()).toBe(false);
    expect(asked).toBe(1);
    expect(await watch.recheck()).toBe(false);
    answer = 'ok';
    expect(await watch.recheck()).toBe(true);
    expect(states).toEqual(['signed-out', 'signed-in']);
  });

  it('a backend that does not answer (down, restarting) is no refusal; a probe that throws counts as unreachable', async () => {
    const watch = new AccessWatch(() => Promise.reject(new Error('network')));
    expect(await watch.admit()).toBe(true);
    expect(watch.state).toBe('signed-in');
    const down = new AccessWatch(async () => 'unreachable');
    expect(await down.admit()).toBe(true);
  });

  it('an API answer of 401 signs out without asking', () => {
    let asked = 0;
    const watch = new AccessWatch(async () => (asked++, 'ok'));
    watch.refused();
    expect(watch.state).toBe('signed-out');
    expect(asked).toBe(0);
  });
});
