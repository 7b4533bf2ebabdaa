import { describe, expect, it } from 'vitest';
import { timedFrames } from './relayTiming.js';

describe('relay timing', () => {
  it('reports each frame once, after its handler ran, also when the handler throws', () => {
    const seen: string[] = [];
    const times: number[] = [];
    const handle = timedFrames(
      (frame: string) => {
        seen.push(frame);
        if (frame === 'bad') throw new Error('refused');
      },
      (ms) => times.push(ms),
    );
    handle('a');
    expect(() => handle('bad')).toThrow('refused');
    expect(seen).toEqual(['a', 'bad']);
    expect(times).toHaveLength(2);
    for (const ms of times) expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('without a timer is the handler itself (nothing added per frame)', () => {
    const handler = (_frame: string) => undefined;
    expect(timedFrames(handler, undefined)).toBe(handler);
  });
});
