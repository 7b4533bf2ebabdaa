import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { BatchedHistogram } from './batchedHistogram.js';

const BOUNDS = [0.001, 0.01, 0.1];

describe('BatchedHistogram: per-frame counts read at scrape time', () => {
  it("exposes exactly prom-client's own histogram text for the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const batched = new BatchedHistogram('relay_seconds', 'help', 'direction', ['up', 'down'] as const, BOUNDS).register(ours);
    const reference = new Histogram({ name: 'relay_seconds', help: 'help', labelNames: ['direction'], buckets: BOUNDS, registers: [theirs] });
    const up = batched.recorder('up');
    const down = batched.recorder('down');
    for (const [direction, seconds] of [
      ['up', 0.0005],
      ['up', 0.001],
      ['up', 0.05],
      ['down', 3],
      ['down', 0.01],
    ] as const) {
      (direction === 'up' ? up : down)(seconds);
      reference.observe({ direction }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain('relay_seconds_bucket{le="+Inf",direction="down"} 2\n');
  });

  it('reset clears every count and sum', async () => {
    const registry = new Registry();
    const batched = new BatchedHistogram('h', 'help', 'd', ['a'] as const, BOUNDS).register(registry);
    batched.recorder('a')(0.5);
    batched.reset();
    expect(await registry.metrics()).toContain('h_count{d="a"} 0\n');
  });
});
