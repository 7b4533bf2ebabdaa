/** The soak's result as Markdown: one row per checkpoint, then what grew from warm-up to the end. */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SoakResult } from '../soak.js';
import type { Checkpoint, HeapAfterGc } from './checkpoint.js';

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const total = (r: Record<string, number>) => Object.values(r).reduce((s, n) => s + n, 0);
const agentctlsOf = (c: Checkpoint, name: string) => c.agentctls.filter((a) => a.name === name);
const agentctl = (c: Checkpoint, name: string) => {
  const found = agentctlsOf(c, name);
  return found.length ? found.map((a) => `${f1(a.rssMiB)} / ${f1(a.heap?.usedMiB ?? NaN)} / ${a.fds}`).join(', ') : '-';
};
const heapCell = (h: HeapAfterGc | undefined) => (h ? `${f1(h.usedMiB)} (${f1(h.codeMiB)}) | ${f1(h.externalMiB)} / ${f1(h.arrayBuffersMiB)}` : '- | -');
const lessCode = (h: HeapAfterGc | undefined) => (h ? h.usedMiB - h.codeMiB : NaN);
const kib = (bytes: number) => (bytes / 1024).toFixed(0);

/** The figures whose drift tells a leak, read off a checkpoint. */
export const FIGURES: Record<string, (c: Checkpoint) => number> = {
  'backend RSS MiB': (c) => c.backendRssMiB,
  'backend heap after GC MiB': (c) => c.backendHeap?.usedMiB ?? NaN,
  'backend heap after GC, code spaces MiB': (c) => c.backendHeap?.codeMiB ?? NaN,
  'backend heap after GC less code MiB': (c) => lessCode(c.backendHeap),
  'backend external MiB (after GC)': (c) => c.backendHeap?.externalMiB ?? NaN,
  'backend arrayBuffers MiB (after GC)': (c) => c.backendHeap?.arrayBuffersMiB ?? NaN,
  'backend fds': (c) => c.backendFds,
  'backend active resources': (c) => total(c.resources),
  'backend Timeout (ref’d timers)': (c) => c.resources.Timeout ?? 0,
  'backend clock timers': (c) => c.clockTimers,
  'agentctl demo RSS MiB': (c) => agentctlsOf(c, 'demo')[0]?.rssMiB ?? NaN,
  'agentctl demo heap after GC MiB': (c) => agentctlsOf(c, 'demo')[0]?.heap?.usedMiB ?? NaN,
  'agentctl demo heap after GC less code MiB': (c) => lessCode(agentctlsOf(c, 'demo')[0]?.heap),
  'agentctl demo external MiB (after GC)': (c) => agentctlsOf(c, 'demo')[0]?.heap?.externalMiB ?? NaN,
  'agentctl demo fds': (c) => agentctlsOf(c, 'demo')[0]?.fds ?? NaN,
  'agentctl kotlin RSS MiB': (c) => agentctlsOf(c, 'kotlin')[0]?.rssMiB ?? NaN,
  'agentctl kotlin heap after GC MiB': (c) => agentctlsOf(c, 'kotlin')[0]?.heap?.usedMiB ?? NaN,
  'agentctl kotlin heap after GC less code MiB': (c) => lessCode(agentctlsOf(c, 'kotlin')[0]?.heap),
  'agentctl kotlin external MiB (after GC)': (c) => agentctlsOf(c, 'kotlin')[0]?.heap?.externalMiB ?? NaN,
  'agentctl kotlin fds': (c) => agentctlsOf(c, 'kotlin')[0]?.fds ?? NaN,
  'processes under the backend': (c) => c.processes,
  zombies: (c) => c.zombies.length,
};

export function soakReport(r: SoakResult): string {
  const points = r.checkpoints;
  // Warm-up: the first checkpoint at or after a fifth of the run (every server started and typed at).
  const warmIndex = Math.max(
    1,
    points.findIndex((c) => c.atS >= (r.minutes * 60) / 5),
  );
  const warm = points[Math.min(warmIndex, points.length - 1)];
  const end = points.at(-1);
  const intervals = Math.max(1, points.length - 1 - Math.min(warmIndex, points.length - 1));
  const lines = [
    `Soak: ${r.minutes} min, seed ${r.seed} (BENCH_SOAK_SEED=${r.seed} to drive the same choices); actions ${Object.entries(r.actions)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; errors ${r.errors.length}`,
    '',
    'agentctl cells are RSS MiB / JS heap used after a full GC MiB / open fds of each agentctl serving that session ("install" ones come and go).',
    'Heap figures come from the heap probe (KANDEV_HEAP_PROBE_DIR, on for the soak only): each process collects fully, then reports',
    "process.memoryUsage(), with V8's code spaces (compiled functions, which grow as more of the code runs) in brackets; RSS and",
    'every other figure of a checkpoint are read before that collection.',
    '',
    '| t (s) | backend RSS MiB | backend heap after GC MiB (code spaces) | backend external / arrayBuffers MiB | backend fds | active resources (Timeout) | clock timers | leases (detached) | agentctl demo | agentctl kotlin | agentctl install | processes | marked | zombies | load (1 min) |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...points.map(
      (c) =>
        `| ${c.atS} | ${f1(c.backendRssMiB)} | ${heapCell(c.backendHeap)} | ${c.backendFds} | ${total(c.resources)} (${c.resources.Timeout ?? 0}) | ${c.clockTimers} | ${c.leases} (${c.leasesDetached}) | ${agentctl(c, 'demo')} | ${agentctl(c, 'kotlin')} | ${agentctl(c, 'install')} | ${c.processes} | ${c.marked} | ${c.zombies.length} | ${f1(c.load1)} |`,
    ),
    '',
    warm && end
      ? `| figure | after warm-up (${warm.atS} s) | end (${end.atS} s) | growth | per checkpoint |`
      : '| figure | after warm-up | end | growth | per checkpoint |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...(warm && end
      ? Object.entries(FIGURES).map(([name, read]) => {
          const growth = read(end) - read(warm);
          return `| ${name} | ${f1(read(warm))} | ${f1(read(end))} | ${f1(growth)} | ${f1(growth / intervals)} |`;
        })
      : []),
    '',
    `Active resources by type at the end: ${end ? JSON.stringify(end.resources) : '-'}`,
    `Zombies seen: ${[...new Set(points.flatMap((c) => c.zombies))].join('; ') || 'none'}`,
    `Leases once every tab was released: ${r.leasesAfterRelease}`,
    `Process trees under the backend at the end (after every tab released, before the stop): ${r.treeAtEnd.length ? '' : 'none'}`,
    ...r.treeAtEnd.map((l) => `- ${inRepository(l)}`),
    `Left over after the backend stopped (its trees, and anything carrying the run's marker): ${r.leftOver.length ? r.leftOver.map(inRepository).join('; ') : 'nothing'}`,
    `SQLite integrity_check: ${r.integrity}`,
    ...r.heapGrowth.flatMap((g) => [
      '',
      `Heap growth of the ${g.process} from its snapshot at ${g.fromS} s to the one at ${g.toS} s, by constructor (self size; largest growth first):`,
      '',
      '| constructor | count before | count after | self size growth KiB |',
      '| --- | ---: | ---: | ---: |',
      ...g.top.map((t) => `| ${t.name.replace(/\|/g, '\\|').replace(/\s+/g, ' ').slice(0, 80)} | ${t.countBefore} | ${t.countAfter} | ${kib(t.bytesGrowth)} |`),
    ]),
    ...(r.errors.length ? ['', 'Errors:', ...r.errors.slice(0, 30).map((e) => `- ${e}`)] : []),
  ];
  return lines.join('\n');
}

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A command line with this checkout's paths relative to it: the result is read on other machines. */
function inRepository(commandLine: string): string {
  return commandLine.split(`${REPOSITORY}/`).join('');
}
