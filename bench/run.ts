/**
 * Benchmarks (docs/architecture.md section 8), run on demand with `npm run bench`, never in the test suite.
 * One run compares, side by side (sections: `npm run bench -- transport load search profile faults findings`):
 *   - transport: a stub server (bench/echoServer.mjs) answering `bench/echo` of 200 B to 1 MB and
 *     flooding 20k notifications, reached by direct stdio, a 1-hop proxy that parses and re-encodes
 *     JSON, a 1-hop raw reframing proxy, and the product's whole path (browser-side WebSocket ->
 *     backend gateway + lease broker -> agentctl -> stdio); then what only the product has:
 *     reattach vs cold start (stub and real typescript-language-server), backend memory per lease,
 *     p50 with 1/4/8 leases busy at once, and with 10k documents open in one lease;
 *   - load: first load of the editor on a fresh Chromium profile against a bare Monaco page;
 *   - search: the files search on a generated 13k-file tree against plain ripgrep;
 *   - relay: only the peer comparison of transport (direct, 1-hop parse, 1-hop raw, product), for
 *     quick repeated runs while working on the relay;
 *   - profile: the product path once with the backend under --cpu-prof (top self time).
 *   - faults (bench/faults.ts): peak backend RSS under a flood at a frozen tab and under fuzzing,
 *     and another session's echo latency during the flood.
 *   - typing (bench/typing.ts): trigger character to visible suggestions in 1k/10k/40k-line files
 *     against the same server over stdio, requests per keystroke, idle requests per minute per
 *     language, quick open over 100k files, and the page's heap around the 40k-line file.
 *   - findings (bench/findings.ts): click on a demo file to its first finding in Problems (timed
 *     in the page, to the frame that draws it; BENCH_FINDINGS_TRACE=1 prints where the time went), every
 *     language on: first use (its server installed on the way), cold (a new session, the file opened
 *     first) and warm (the file reopened), beside the same server alone over stdio from spawn;
 *     BENCH_FINDINGS_LANGUAGES picks the languages (default five, `all` for the whole demo),
 *     BENCH_FINDING_ROUNDS the cold rounds (2).
 *   - soak (bench/soak.ts, only when named): a compressed day of use for BENCH_SOAK_MINUTES (30),
 *     seeded (BENCH_SOAK_SEED, printed), a checkpoint every BENCH_SOAK_CHECKPOINT_S (180): memory,
 *     descriptors, handles, timers and leases over time, zombies, leftovers and SQLite integrity at
 *     the end (bench/results/soak.md).
 *   - live (bench/live.ts): disk write to server notification and to the page's events frame,
 *     a 10,000-file burst, and agentctl's memory watching a 100,000-file workspace.
 *   - mcp (bench/mcp.ts): the agents' MCP endpoint: `diagnostics` after a one-line disk write against
 *     pyright's own time over stdio for the same change, and a warm `definition` call.
 *   - restart (bench/restart.ts): restart-to-ready after a SIGKILLed backend, warm re-adoption of
 *     a real typescript-language-server lease against a cold start, to the first hover answered.
 * Results: bench/results/<time>.json and .md, the latest table also as bench/results/latest.md,
 * and the profile in bench/results/NOTES.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, repoRoot, webDist } from '../test/support/build.js';
import { copyDemoWorkspace, startStack, taskPath } from '../test/support/stack.js';
import { profileProductPath } from './cpuProfile.js';
import { runFaultBench } from './faults.js';
import { liveBench } from './live.js';
import { bareMonaco, firstLoad } from './firstLoad.js';
import { findingTimes, wholeDemoOn } from './findings.js';
import { FINDING_HEADERS, findingCells, selectFindings } from './findingRows.js';
import { searchBench } from './search.js';
import { runSoak, soakReport } from './soak.js';
import { heapBench, idleBench, manyFilesWorkspace, quickOpenBench, typingBench, typingWorkspace } from './typing.js';
import { restartBench } from './restart.js';
import { mcpBench } from './mcp.js';
import { median, table, type LatencySummary } from './stats.js';
import { mergeLatest, type SectionReport } from './latestReport.js';
import { AFTER_READY_ROUNDS, afterReadyBench, type AfterReadyRow } from './typingAfterReady.js';
import {
  concurrentLeases,
  directStdio,
  ECHO_SIZES,
  FLOOD,
  installEchoServer,
  concurrentDirect,
  manyDocuments,
  measurePath,
  memoryPerLease,
  oneHopProxy,
  openProduct,
  startTimes,
  twoHopProxy,
  type PathResult,
} from './transport.js';

const benches = new Set(
  process.argv.slice(2).length ? process.argv.slice(2) : ['transport', 'load', 'search', 'profile', 'faults', 'findings', 'live', 'typing', 'restart'],
);
const FINDING_ROUNDS = Number(process.env.BENCH_FINDING_ROUNDS ?? 2);
const IDLE_WINDOW_MS = Number(process.env.BENCH_IDLE_MS ?? 60_000);
const QUICK_OPEN_FILES = Number(process.env.BENCH_QUICK_OPEN_FILES ?? 100_000);
/** Parts of the typing section to run (default all): typing, afterready, heap, idle, quickopen. */
const TYPING_ALL = 'typing,afterready,heap,idle,quickopen';
const TYPING_PARTS = new Set((process.env.BENCH_TYPING_PARTS ?? TYPING_ALL).split(','));
const RESTART_ROUNDS = Number(process.env.BENCH_RESTARTS ?? 3);
const REATTACH_ROUNDS = Number(process.env.BENCH_REATTACH ?? 8);
const LEASES = Number(process.env.BENCH_LEASES ?? 6);
const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
/** Alternating runs of the relay's peer comparison; each figure is their median. */
const RELAY_RUNS = Number(process.env.BENCH_RELAY_RUNS ?? 3);

const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version, cpus: (await import('node:os')).cpus().length };
const report: string[] = [];
/** The bench running now: what `out` prints goes into its section of latest.md. */
let section: SectionReport | undefined;
const sections: SectionReport[] = [];
const out = (title: string, body: string) => {
  console.log(`\n${title}\n\n${body}`);
  const markdown = `### ${title}\n\n\`\`\`\n${body}\n\`\`\``;
  report.push(markdown);
  if (section) section.body += `${section.body ? '\n\n' : ''}${markdown}`;
};
/** Starts the section of bench `name` (latest.md keeps one per bench). */
function begin(name: string): void {
  section = {
    name,
    at: new Date().toISOString(),
    machine: `Node ${process.version}, ${String(results.cpus)} CPUs, load average ${loadAverage()} as it started`,
    body: '',
  };
  sections.push(section);
}
/** The machine's load average (1, 5, 15 min), printed beside every figure a shared machine moves. */
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const fixed = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));

/** `loads`: per path, the 1-minute load average as each of its runs began (beside its figures). */
function pathRows(paths: Array<[string, PathResult]>, loads: Record<string, number[]>): string {
  const headers = ['path', ...ECHO_SIZES.flatMap((s) => [`${s.label} p50`, 'p95', 'p99']), 'notif/s', 'MiB/s', 'load per run'];
  const rows = paths.map(([name, r]) => [
    name,
    ...ECHO_SIZES.flatMap((s) => [fixed(r.echo[s.label]?.p50), fixed(r.echo[s.label]?.p95), fixed(r.echo[s.label]?.p99)]),
    r.flood.messagesPerSecond.toFixed(0),
    r.flood.mibPerSecond.toFixed(1),
    (loads[name] ?? []).map((l) => l.toFixed(1)).join(' / '),
  ]);
  return table(headers, rows);
}

/** A path's figures over several runs: per size the median p50 / p95 / p99, and the median rates. */
function medianPath(runs: PathResult[]): PathResult {
  const echo: PathResult['echo'] = {};
  for (const size of ECHO_SIZES) {
    const of = (pick: (s: LatencySummary) => number) => median(runs.map((r) => pick(r.echo[size.label]!)));
    echo[size.label] = { ...runs[0]!.echo[size.label]!, p50: of((s) => s.p50), p95: of((s) => s.p95), p99: of((s) => s.p99), mean: of((s) => s.mean) };
  }
  return {
    echo,
    flood: { messagesPerSecond: median(runs.map((r) => r.flood.messagesPerSecond)), mibPerSecond: median(runs.map((r) => r.flood.mibPerSecond)) },
  };
}

/** The product's p50 over the floor's per size, and its notification rate as a share of the floor's: each run's own, then their median. */
function floorRatios(runs: Array<Record<string, PathResult>>, product: string, floor: string): string {
  const row = ECHO_SIZES.map((size) => fixed(median(runs.map((r) => r[product]!.echo[size.label]!.p50 / r[floor]!.echo[size.label]!.p50)), 2) + 'x');
  const notifications = fixed(median(runs.map((r) => r[product]!.flood.messagesPerSecond / r[floor]!.flood.messagesPerSecond)), 2) + 'x';
  return table([...ECHO_SIZES.map((s) => `${s.label} p50`), 'notifications/s'], [[...row, notifications]]);
}

async function transport(dir: string, peersOnly = false): Promise<void> {
  const bin = join(dir, 'bin');
  const shim = installEchoServer(bin);
  const stack = await startStack({ KANDEV_LSP_MAX_CONNECTIONS: '32' });
  try {
    const task = await stack.createTask({ title: 'bench', workspace: copyDemoWorkspace(), env: { PATH: taskPath(bin) } });
    const { peer } = await openProduct(stack, (await stack.startSession(task.id)).id);
    await peer.initialize();
    const PRODUCT = 'Kandev: browser WS -> backend -> agentctl -> stdio';
    const measures: Array<[string, () => Promise<PathResult>]> = [
      ['direct stdio', () => directStdio(shim)],
      ['1-hop proxy, JSON parse + re-encode', () => oneHopProxy(shim, 'json')],
      ['1-hop proxy, raw reframing', () => oneHopProxy(shim, 'raw')],
      ["2 raw hops (the product's hop count)", () => twoHopProxy(shim)],
      [PRODUCT, () => measurePath(peer)],
    ];
    // Every path RELAY_RUNS times, alternating (the order rotates each run), so the machine's load
    // falls on all of them alike; each figure is the median of the runs, each ratio the median of
    // each run's own ratio.
    const runs: Array<Record<string, PathResult>> = [];
    const loads: string[] = [];
    const pathLoads: Record<string, number[]> = Object.fromEntries(measures.map(([name]) => [name, []]));
    for (let run = 0; run < RELAY_RUNS; run++) {
      const results: Record<string, PathResult> = {};
      const before = loadAverage();
      for (let k = 0; k < measures.length; k++) {
        const [name, measure] = measures[(k + run) % measures.length]!;
        pathLoads[name]!.push(os.loadavg()[0]!);
        results[name] = await measure();
      }
      runs.push(Object.fromEntries(measures.map(([name]) => [name, results[name]!])));
      loads.push(`${before} -> ${loadAverage()}`);
      console.log(`relay run ${run + 1} of ${RELAY_RUNS} done (load ${loads[loads.length - 1]})`);
    }
    await peer.close();
    const paths: Array<[string, PathResult]> = measures.map(([name]) => [name, medianPath(runs.map((r) => r[name]!))]);
    out(
      `round trip of bench/echo (ms) and a flood of ${FLOOD.count} x ${FLOOD.size} B notifications: median of ${RELAY_RUNS} alternating runs (load average per run: ${loads.join('; ')})`,
      pathRows(paths, pathLoads),
    );
    out(
      `the product beside two raw hops, each run's own ratio (median of ${RELAY_RUNS}; 1-minute load average as the product's runs began: ${pathLoads[PRODUCT]!.map((l) => l.toFixed(1)).join(' / ')})`,
      floorRatios(runs, PRODUCT, "2 raw hops (the product's hop count)"),
    );
    results.transport = Object.fromEntries(paths);
    results.transportRuns = runs;
    results.transportLoad = loads;
    results.transportPathLoads = pathLoads;
    if (peersOnly) return;

    const fake = await startTimes(stack, task.id, 'kotlin', REATTACH_ROUNDS);
    const tsTask = await stack.createTask({ title: 'bench ts', workspace: copyDemoWorkspace() });
    const realRounds = Math.max(3, Math.floor(REATTACH_ROUNDS / 2));
    const real = await startTimes(stack, tsTask.id, 'typescript', realRounds);
    out(
      'ready to use after connect (ms): reattach to a retained lease vs cold start (launch + initialize)',
      table(
        ['server', 'start', 'p50', 'p95', 'mean', 'resumed'],
        [
          [
            'stub (echo server)',
            'reattach',
            fixed(fake.reattach.p50),
            fixed(fake.reattach.p95),
            fixed(fake.reattach.mean),
            `${fake.resumed}/${REATTACH_ROUNDS}`,
          ],
          ['stub (echo server)', 'cold start', fixed(fake.cold.p50), fixed(fake.cold.p95), fixed(fake.cold.mean), ''],
          [
            'typescript-language-server',
            'reattach',
            fixed(real.reattach.p50),
            fixed(real.reattach.p95),
            fixed(real.reattach.mean),
            `${real.resumed}/${realRounds}`,
          ],
          ['typescript-language-server', 'cold start', fixed(real.cold.p50), fixed(real.cold.p95), fixed(real.cold.mean), ''],
        ],
      ),
    );
    results.startTimes = { stub: fake, typescript: real };

    const memory = await memoryPerLease(stack, task.id, LEASES);
    // Each load taken twice, through the product and straight over stdio: the product's added
    // latency is the difference, which should stay flat as the load grows.
    const busy: Array<[string, LatencySummary, LatencySummary]> = [];
    for (const n of [1, 4, 8])
      busy.push([`${n} lease${n > 1 ? 's' : ''} busy at once`, await concurrentLeases(stack, task.id, n), await concurrentDirect(shim, n)]);
    busy.push([`1 lease with ${DOCUMENTS} open documents`, await manyDocuments(stack, task.id, DOCUMENTS), await concurrentDirect(shim, 1, 300, DOCUMENTS)]);
    out(
      'Kandev path under load: 200 B bench/echo round trip (ms), beside the same load over direct stdio',
      table(
        ['load', 'p50', 'p95', 'p99', 'direct p50', 'direct p95', 'added p50', 'added p95'],
        busy.map(([name, s, d]) => [name, fixed(s.p50), fixed(s.p95), fixed(s.p99), fixed(d.p50), fixed(d.p95), fixed(s.p50 - d.p50), fixed(s.p95 - d.p95)]),
      ),
    );
    out(
      'backend memory per lease',
      `${memory.beforeKiB} KiB before, ${memory.afterKiB} KiB with ${LEASES} more leases: ${memory.perLeaseKiB.toFixed(0)} KiB per lease`,
    );
    results.load = Object.fromEntries(busy.map(([name, product, direct]) => [name, { ...product, direct }]));
    results.memory = memory;
  } finally {
    await stack.stop();
  }
}

async function load(): Promise<void> {
  ensureBuilt('web');
  // The production bundle, as a person downloads it (test stacks serve the test build otherwise).
  const stack = await startStack({ KANDEV_WEB_DIR: join(repoRoot, webDist) });
  try {
    const task = await stack.createTask({ title: 'bench load', workspace: copyDemoWorkspace() });
    const sessionId = (await stack.startSession(task.id)).id;
    const rows = [
      await firstLoad(stack, sessionId, 'src/main.ts', 'typescript'),
      await firstLoad(stack, sessionId, 'app/main.py', 'python'),
      await bareMonaco(stack, sessionId, 'src/main.ts'),
    ];
    out(
      'first load on a fresh Chromium profile (KiB over the wire incl. headers; ms from navigation)',
      table(
        ['page', 'editor visible ms', 'KiB then', 'server ready ms', 'KiB then', 'requests', 'TS worker fetched'],
        rows.map((r) => [
          r.page,
          fixed(r.editorMs, 0),
          fixed(r.editorKiB, 0),
          fixed(r.readyMs, 0),
          fixed(r.readyKiB, 0),
          String(r.requests),
          r.typescriptWorker ? 'yes' : 'no',
        ]),
      ),
    );
    results.firstLoad = rows;
  } finally {
    await stack.stop();
  }
}

async function search(): Promise<void> {
  const stack = await startStack();
  try {
    const { rows, files, mib } = await searchBench(stack);
    out(
      `files search on a generated tree of ${files} files, ${mib.toFixed(0)} MiB (median of 3, ms, whole answer read)`,
      table(
        ['engine', 'rare string', 'no match'],
        rows.map((r) => [r.engine, fixed(r.rareMs, 0), fixed(r.nothingMs, 0)]),
      ),
    );
    results.search = { files, mib, rows };
  } finally {
    await stack.stop();
  }
}

async function findings(): Promise<void> {
  ensureBuilt('web-test');
  const languages = selectFindings(process.env.BENCH_FINDINGS_LANGUAGES);
  // The backend's default lease cap (the whole demo at once). The web app's test build: the same
  // code as the production bundle plus test hooks, and it spares a second web build per run.
  const stack = await startStack();
  try {
    console.log(
      `\nfindings: ${languages.map((l) => l.language).join(', ')} (BENCH_FINDINGS_LANGUAGES=all for every demo file), ` +
        `${FINDING_ROUNDS} cold rounds each; each row as it is measured (load ${loadAverage()}):\n${FINDING_HEADERS.join(' | ')}`,
    );
    const rows = await findingTimes(stack, languages, FINDING_ROUNDS, (row) => console.log(findingCells(row).join(' | ')));
    out(
      `click to first finding in Problems (ms): stdio from spawn, the same server alone to its first diagnostic for the file (median of ${FINDING_ROUNDS}); ` +
        `cold, a new session with the file opened first (median of ${FINDING_ROUNDS}, alternating with stdio); first use, its server installed on the way; ` +
        `warm, the file reopened; load, the 1-minute load average as the row began; every demo language on (load ${loadAverage()} at the end)`,
      table(FINDING_HEADERS, rows.map(findingCells)),
    );
    results.findings = rows;
  } finally {
    await stack.stop();
  }
}

async function profile(dir: string): Promise<void> {
  const { top, profiledMs } = await profileProductPath(copyDemoWorkspace(), join(dir, 'profile-bin'));
  const body = table(
    ['self ms', '%', 'function', 'where'],
    top.map((t) => [fixed(t.ms, 1), fixed(t.percent, 1), t.fn, t.where]),
  );
  out(`backend CPU profile of one product-path run (${(profiledMs / 1000).toFixed(1)} s profiled), top self time`, body);
  results.profile = { profiledMs, top };
  const notes = [
    '# Benchmark notes',
    '',
    `Backend CPU profile (\`node --cpu-prof\`) of one run of the product path (bench/echo 200 B - 1 MB, then ${FLOOD.count} notifications),`,
    `measured ${new Date().toISOString()} by \`npm run bench -- profile\`. Top self time; "(idle)" and "(program)" are V8's own buckets.`,
    'The relay work (top frames before and after, medians of runs, where a round trip goes): relay-profile.md.',
    '',
    '```',
    body,
    '```',
    '',
  ];
  writeFileSync(join(repoRoot, 'bench/results/NOTES.md'), notes.join('\n'));
}

async function typing(): Promise<void> {
  // The test build: the same app plus the window hooks the bench drives Monaco through.
  ensureBuilt('web-test');
  const stack = await startStack({ KANDEV_LSP_MAX_CONNECTIONS: '16' });
  try {
    const workspace = typingWorkspace();
    const sessionId = (await stack.startSession((await stack.createTask({ title: 'bench typing', workspace })).id)).id;
    if (TYPING_PARTS.has('typing')) {
      const rows = await typingBench(stack, sessionId, workspace);
      out(
        `typing \`export const z = v1.\` at the end of a file of N lines (typescript-language-server): trigger to visible suggestions (ms)`,
        table(
          ['lines', 'browser ms', 'stdio ms', 'ratio', 'first key -> list ms', 'requests/keystroke', 'requests while typing'],
          rows.map((r) => [
            `${r.lines} (${r.round}${r.samples > 1 ? `, median of ${r.samples}` : ''})`,
            fixed(r.browserMs, 0),
            fixed(r.stdioMs, 0),
            fixed(r.browserMs / r.stdioMs, 2),
            fixed(r.browserFromFirstKeyMs, 0),
            fixed(r.requestsPerKeystroke, 2),
            Object.entries(r.methods)
              .map(([m, n]) => `${m.replace('textDocument/', '')} ${n}`)
              .join(', '),
          ]),
        ),
      );
      results.typing = rows;
    }
    if (TYPING_PARTS.has('afterready')) {
      // A fresh session per row: its server's first work after the file opens is what this case is about.
      const headers = [
        'lines',
        'typed',
        'browser ms',
        'stdio ms',
        'ratio',
        'rounds (browser / stdio ms)',
        '$/cancelRequest',
        'requests from Ready to the list',
      ];
      const cells = (r: AfterReadyRow) => [
        String(r.lines),
        r.waitMs ? `${r.waitMs / 1000} s after Ready` : 'at once after Ready',
        r.failure === undefined ? fixed(r.browserMs, 0) : `no list: ${r.failure}`,
        fixed(r.stdioMs, 0),
        r.failure === undefined ? fixed(r.browserMs / r.stdioMs, 2) : '-',
        r.samples.browserMs.map((b, i) => `${fixed(b, 0)}/${fixed(r.samples.stdioMs[i] ?? NaN, 0)}`).join(' '),
        String(r.cancels),
        Object.entries(r.methods)
          .map(([m, n]) => `${m.replace('textDocument/', '')} ${n}`)
          .join(', '),
      ];
      console.log(`\nafter Ready, each row as it is measured (load ${loadAverage()}):\n${headers.join(' | ')}`);
      const task = await stack.createTask({ title: 'bench after ready', workspace });
      const rows = await afterReadyBench(stack, task.id, workspace, (row) => console.log(cells(row).join(' | ')));
      out(
        `the first keystrokes after a big file opens: \`export const z = v1.\` typed 3 s after Ready and at once, in a fresh session; trigger to visible suggestions (ms) beside the same server over stdio after the same wait and edits, the median of ${AFTER_READY_ROUNDS} rounds of each, alternately (load ${loadAverage()})`,
        table(headers, rows.map(cells)),
      );
      results.typingAfterReady = rows;
    }
    if (TYPING_PARTS.has('heap')) {
      const heap = await heapBench(stack, sessionId, 40_000);
      out(
        "the page's JS heap after a collection (MiB): before opening the 40k-line file, with it open (server ready, Outline drawn), after closing it",
        table(
          ['lines', 'before', 'open', 'closed', 'given back'],
          [[String(heap.lines), fixed(heap.beforeMiB, 1), fixed(heap.openMiB, 1), fixed(heap.closedMiB, 1), fixed(heap.openMiB - heap.closedMiB, 1)]],
        ),
      );
      results.heap = heap;
    }
    if (TYPING_PARTS.has('idle')) {
      const { env, dispose } = await wholeDemoOn(stack);
      const demo = (await stack.startSession((await stack.createTask({ title: 'bench idle', workspace: copyDemoWorkspace(), env })).id)).id;
      const idle = await idleBench(stack, demo, IDLE_WINDOW_MS).finally(async () => {
        await stack.api(`/api/sessions/${demo}/stop`, { method: 'POST', body: {} }).catch(() => undefined);
        dispose();
      });
      out(
        `requests per minute of an idle focused editor (caret at the start, measured over ${IDLE_WINDOW_MS / 1000} s after the first wave settled)`,
        table(
          ['language', 'file', 'requests/min', 'methods'],
          idle.map((r) => [
            r.language,
            r.file,
            fixed(r.requestsPerMinute, 1),
            Object.entries(r.methods)
              .map(([m, n]) => `${m} ${n}`)
              .join(', ') || '-',
          ]),
        ),
      );
      results.idle = idle;
    }
    if (TYPING_PARTS.has('quickopen')) {
      const many = (await stack.startSession((await stack.createTask({ title: 'bench quick open', workspace: manyFilesWorkspace(QUICK_OPEN_FILES) })).id)).id;
      const quick = await quickOpenBench(stack, many, QUICK_OPEN_FILES);
      out(
        'quick open (Ctrl+P) over a big workspace: first results while it lists, and the complete list (ms from the key)',
        table(['files', 'first results ms', 'complete ms'], [[String(quick.files), fixed(quick.firstResultsMs, 0), fixed(quick.completeMs, 0)]]),
      );
      results.quickOpen = quick;
    }
  } finally {
    await stack.stop();
  }
}

async function restart(): Promise<void> {
  const { warm, cold } = await restartBench(RESTART_ROUNDS);
  out(
    `restart-to-ready (ms): SIGKILLed backend started again, to the first hover answered by typescript-language-server (${RESTART_ROUNDS} rounds)`,
    table(
      ['after the restart', 'p50', 'p95', 'mean'],
      [
        ['warm: task host re-adopted, lease resumed', fixed(warm.p50), fixed(warm.p95), fixed(warm.mean)],
        ['cold: KANDEV_RESTART_GRACE_MS=0, server started again', fixed(cold.p50), fixed(cold.p95), fixed(cold.mean)],
      ],
    ),
  );
  results.restart = { warm, cold };
}

async function main(): Promise<void> {
  ensureBuilt('agentctl');
  ensureBuilt('backend');
  const dir = mkdtempSync(join(tmpdir(), 'kandev-bench-'));
  mkdirSync(join(repoRoot, 'bench/results'), { recursive: true });
  try {
    if (benches.has('transport')) {
      begin('transport');
      await transport(dir);
    } else if (benches.has('relay')) {
      begin('relay');
      await transport(dir, true);
    }
    if (benches.has('load')) {
      begin('load');
      await load();
    }
    if (benches.has('search')) {
      begin('search');
      await search();
    }
    if (benches.has('profile')) {
      begin('profile');
      await profile(dir);
    }
    if (benches.has('faults')) {
      begin('faults');
      results.faults = await runFaultBench();
    }
    if (benches.has('findings')) {
      begin('findings');
      await findings();
    }
    if (benches.has('soak')) {
      begin('soak');
      // Only when asked for (not in the default sections): it runs for BENCH_SOAK_MINUTES (30).
      const soak = await runSoak();
      results.soak = soak;
      const body = soakReport(soak);
      out(`a day of use in ${soak.minutes} min (soak)`, body);
      writeFileSync(join(repoRoot, 'bench/results', 'soak.md'), `# npm run bench -- soak, ${results.at as string}\n\n${body}\n`);
    }
    if (benches.has('live')) {
      begin('live');
      const live = await liveBench();
      results.live = live.figures;
      out('Live workspace: disk write to server and page, a 10,000-file burst, a 100,000-file workspace', live.text);
    }
    if (benches.has('typing')) {
      // Run in part (BENCH_TYPING_PARTS), it keeps a section of its own: the other parts' figures stay.
      begin(TYPING_PARTS.size === TYPING_ALL.split(',').length ? 'typing' : `typing-${[...TYPING_PARTS].join('-')}`);
      await typing();
    }
    if (benches.has('restart')) {
      begin('restart');
      await restart();
    }
    if (benches.has('mcp')) {
      begin('mcp');
      const mcp = await mcpBench();
      out("mcp: the agents' endpoint (bench/mcp.ts)", mcp.text);
      results.mcp = mcp.figures;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const stamp = Date.now();
  const outDir = join(repoRoot, 'bench/results');
  writeFileSync(join(outDir, `${stamp}.json`), JSON.stringify(results, null, 2));
  const markdown = [`# npm run bench, ${results.at as string}`, '', `Node ${process.version}, ${String(results.cpus)} CPUs.`, '', ...report, ''].join('\n');
  writeFileSync(join(outDir, `${stamp}.md`), markdown);
  const latest = join(outDir, 'latest.md');
  // A bench that printed no table (faults prints to the console only) leaves its section as it was.
  const measured = sections.filter((s) => s.body);
  writeFileSync(latest, mergeLatest(existsSync(latest) ? readFileSync(latest, 'utf8') : undefined, measured));
  console.log(`\nresults: bench/results/${stamp}.json, bench/results/${stamp}.md`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
