import { describe, expect, it } from 'vitest';
import { runSoak, type SoakResult } from '../../bench/soak.js';

/**
 * The soak bench (`npm run bench -- soak`) in its short mode: one minute of the compressed day over
 * the real backend, agentctls and servers (typescript-language-server, pyright, gopls, the fake
 * kotlin server that is crashed, an install from a release server on 127.0.0.1). A fixed seed, so
 * a failure here can be driven again with BENCH_SOAK_SEED. What must hold at the end is what the
 * 30-minute run reports: no step failed, no zombie at any checkpoint, every lease gone once the
 * tabs are released, nothing of the run left after the backend stops, the database intact.
 */
describe('soak bench, short mode', () => {
  it('a minute of use leaves no error, zombie, lease or process behind and an intact database', { timeout: 900_000 }, async () => {
    const lines: string[] = [];
    const result: SoakResult = await runSoak({ minutes: 1, checkpointMs: 20_000, seed: 20261204, log: (l) => lines.push(l) });
    expect(lines[0]).toContain('seed 20261204');
    expect(result.errors).toEqual([]);
    expect(result.actions.install).toBeGreaterThanOrEqual(1);
    expect(result.actions.open).toBeGreaterThanOrEqual(1);
    expect(result.actions.type).toBeGreaterThanOrEqual(1);
    // The marker reaches what the backend starts, so the leftover scan below can see them.
    expect(Math.max(...result.checkpoints.map((c) => c.marked))).toBeGreaterThan(1);
    expect(result.checkpoints.flatMap((c) => c.zombies)).toEqual([]);
    expect(result.leasesAfterRelease).toBe(0);
    expect(result.leftOver).toEqual([]);
    expect(result.integrity).toBe('ok');
  });
});
