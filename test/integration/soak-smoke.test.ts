import { describe, expect, it } from 'vitest';
import { runSoak, soakReport, type SoakResult } from '../../bench/soak.js';

/**
 * The soak bench (`npm run bench -- soak`) in its short mode: one minute of the compressed day over
 * the real backend, agentctls and servers (typescript-language-server, pyright, gopls, the fake
 * kotlin server that is crashed, an install from a release server on 127.0.0.1). A fixed seed, so
 * a failure here can be driven again with BENCH_SOAK_SEED. What must hold at the end is what the
 * 30-minute run reports: no step failed, no zombie at any checkpoint, every lease gone once the
 * tabs are released, nothing of the run left after the backend stops, the database intact; and
 * the heap probe answered at every checkpoint (backend and both long sessions' agentctls), with the
 * two snapshots compared by constructor in the report.
 */
/** The largest growth of the heap after GC (less code), warm-up to end, the short run may show. */
const HEAP_GROWTH_BOUND_MIB = { backend: 4, agentctl: 3 };

describe('soak bench, short mode', () => {
  it('a minute of use leaves no error, zombie, lease or process behind and an intact database', { timeout: 900_000 }, async () => {
    const lines: string[] = [];
    const result: SoakResult = await runSoak({
      minutes: 1,
      checkpointMs: 20_000,
      seed: 20261204,
      log: (l) => lines.push(l),
      heapSnapshots: true,
      mustInclude: ['crash', 'reload', 'cut'],
    });
    // Its log in the run's output: the checkpoints and ends say where a slow run's time went.
    console.log(lines.join('\n'));
    expect(lines[0]).toContain('seed 20261204');
    expect(result.errors).toEqual([]);
    expect(result.actions.install).toBeGreaterThanOrEqual(1);
    expect(result.actions.open).toBeGreaterThanOrEqual(1);
    expect(result.actions.type).toBeGreaterThanOrEqual(1);
    // What the soak is for happened at least once, and came back: a server crashed and restarted
    // inside the budget, a page reloaded and a network cut resumed, each on the same lease.
    expect(result.actions.crash).toBeGreaterThanOrEqual(1);
    expect(result.actions.reload_resumed).toBeGreaterThanOrEqual(1);
    expect(result.actions.cut_resumed).toBeGreaterThanOrEqual(1);
    // The marker reaches what the backend starts, so the leftover scan below can see them.
    expect(Math.max(...result.checkpoints.map((c) => c.marked))).toBeGreaterThan(1);
    expect(result.checkpoints.flatMap((c) => c.zombies)).toEqual([]);
    expect(result.leasesAfterRelease).toBe(0);
    expect(result.leftOver).toEqual([]);
    expect(result.integrity).toBe('ok');

    // The heap after a full GC, from the backend and from each long session's agentctl, every checkpoint.
    for (const point of result.checkpoints) {
      expect(point.backendHeap?.usedMiB).toBeGreaterThan(1);
      expect(point.backendHeap?.codeMiB).toBeGreaterThan(0);
      expect(point.backendHeap?.codeMiB).toBeLessThan(point.backendHeap?.usedMiB ?? 0);
      expect(point.backendHeap?.externalMiB).toBeGreaterThan(0);
      expect(point.backendHeap?.arrayBuffersMiB).toBeGreaterThanOrEqual(0);
      for (const name of ['demo', 'kotlin']) expect(point.agentctls.find((a) => a.name === name)?.heap?.usedMiB).toBeGreaterThan(1);
      expect(point.load1).toBeGreaterThanOrEqual(0);
    }
    // The heap after a full GC (less code spaces, which fill as code is compiled) must not grow by
    // more than HEAP_GROWTH_BOUND_MIB between the warm-up checkpoint and the end: the 30-minute run
    // grows by about 0.5 MiB (bench/results/soak.md), so more than this in one minute is a leak.
    const warm = result.checkpoints.find((c, i) => i > 0 && c.atS >= 60 / 5);
    const last = result.checkpoints.at(-1);
    expect(warm && last && warm !== last, 'a warm-up checkpoint before the last one').toBe(true);
    const lessCode = (heap: { usedMiB: number; codeMiB: number } | undefined) => (heap ? heap.usedMiB - heap.codeMiB : NaN);
    expect(lessCode(last!.backendHeap) - lessCode(warm!.backendHeap)).toBeLessThanOrEqual(HEAP_GROWTH_BOUND_MIB.backend);
    for (const name of ['demo', 'kotlin']) {
      const heapOf = (point: typeof warm) => point?.agentctls.find((a) => a.name === name)?.heap;
      expect(lessCode(heapOf(last)) - lessCode(heapOf(warm)), `agentctl ${name}`).toBeLessThanOrEqual(HEAP_GROWTH_BOUND_MIB.agentctl);
    }
    expect(result.heapGrowth.map((g) => g.process)).toEqual(['backend', 'agentctl demo', 'agentctl kotlin']);
    for (const g of result.heapGrowth) expect(g.top.length).toBeGreaterThan(0);
    const report = soakReport(result);
    expect(report).toContain('| backend heap after GC MiB |');
    expect(report).toContain('| agentctl demo heap after GC MiB |');
    expect(report).toContain('| agentctl kotlin heap after GC MiB |');
    expect(report).toContain('| backend heap after GC less code MiB |');
    expect(report).toMatch(/Heap growth of the backend from its snapshot at \d+ s to the one at \d+ s/);
  });
});
