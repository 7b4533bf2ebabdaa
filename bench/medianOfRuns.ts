/**
 * The median of several `npm run bench -- relay` (or transport) runs, for a machine whose load
 * moves every figure between runs: per path, the median p50 / p95 and notification rate, and the
 * median of each run's own ratio to direct stdio (ratios are only compared within one run).
 * Usage: node --import tsx bench/medianOfRuns.ts bench/results/<stamp>.json ...
 */
import { readFileSync } from 'node:fs';
import { ECHO_SIZES, type PathResult } from './transport.js';
import { table } from './stats.js';

const DIRECT = 'direct stdio';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const runs = process.argv.slice(2).map((file) => (JSON.parse(readFileSync(file, 'utf8')) as { transport: Record<string, PathResult> }).transport);
if (runs.length === 0) throw new Error('usage: medianOfRuns.ts <result.json> ...');
const paths = Object.keys(runs[0] as Record<string, PathResult>);
const rows = paths.map((path) => {
  const cells: string[] = [path];
  for (const size of ECHO_SIZES) {
    const p50 = median(runs.map((r) => r[path]!.echo[size.label]!.p50));
    const p95 = median(runs.map((r) => r[path]!.echo[size.label]!.p95));
    const x50 = median(runs.map((r) => r[path]!.echo[size.label]!.p50 / r[DIRECT]!.echo[size.label]!.p50));
    const x95 = median(runs.map((r) => r[path]!.echo[size.label]!.p95 / r[DIRECT]!.echo[size.label]!.p95));
    cells.push(`${p50.toFixed(2)} / ${p95.toFixed(2)} (${x50.toFixed(1)}x / ${x95.toFixed(1)}x)`);
  }
  const rate = median(runs.map((r) => r[path]!.flood.messagesPerSecond));
  const share = median(runs.map((r) => r[path]!.flood.messagesPerSecond / r[DIRECT]!.flood.messagesPerSecond));
  cells.push(`${(rate / 1000).toFixed(1)}k (${(share * 100).toFixed(0)} %)`);
  return cells;
});
console.log(`median of ${runs.length} runs: p50 / p95 ms (each run's ratio to direct stdio, median)\n`);
console.log(table(['path', ...ECHO_SIZES.map((s) => s.label), 'notifications/s (share of direct)'], rows));
