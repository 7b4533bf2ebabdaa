/**
 * The findings bench's rows as data and text: which demo files it measures, which of them a run
 * takes (BENCH_FINDINGS_LANGUAGES), and how a row prints (each figure beside the same server alone
 * over stdio, and the ratio). No browser or server here, so the formatting is unit tested.
 */

/** One demo file with a deliberate finding (demo/workspace/README.md lists them). */
export interface DemoFinding {
  language: string;
  file: string;
  /** Its server starts only in a task whose tools are trusted (it runs the repository's code). */
  trusted?: boolean;
}

/** Every demo language, in the README's order. */
export const DEMO_FINDINGS: readonly DemoFinding[] = [
  { language: 'typescript', file: 'src/main.ts' },
  { language: 'python', file: 'app/main.py' },
  { language: 'go', file: 'main.go' },
  { language: 'json', file: 'config/app.json' },
  { language: 'yaml', file: 'deploy/compose.yaml' },
  { language: 'shell', file: 'scripts/run.sh' },
  { language: 'dockerfile', file: 'Dockerfile' },
  { language: 'cpp', file: 'native/checksum.c' },
  { language: 'html', file: 'web/index.html' },
  { language: 'css', file: 'web/style.css' },
  { language: 'php', file: 'php/Invoice.php' },
  { language: 'prisma', file: 'prisma/schema.prisma' },
  { language: 'svelte', file: 'svelte/Counter.svelte' },
  { language: 'vim', file: 'vim/greet.vim' },
  { language: 'fortran', file: 'fortran/area.f90' },
  { language: 'vue', file: 'vue/Counter.vue', trusted: true },
  { language: 'astro', file: 'astro/Greeting.astro', trusted: true },
  { language: 'erb', file: 'erb/show.html.erb' },
  { language: 'graphql', file: 'graphql/books.graphql', trusted: true },
];

/**
 * What a run measures when no filter is given: the first languages of the demo, whose servers this
 * machine has without an install (TypeScript, Python, Go) and two of the npm-installed ones, so the
 * default run stays within a few minutes. `BENCH_FINDINGS_LANGUAGES=all` measures every demo file.
 */
export const DEFAULT_FINDING_LANGUAGES = ['typescript', 'python', 'go', 'json', 'css'] as const;

/**
 * The demo files a run measures, from BENCH_FINDINGS_LANGUAGES (comma-separated language ids, or
 * `all`; unset or empty: the default set). An unknown id is an error naming the known ones, not a
 * silently shorter run.
 */
export function selectFindings(filter: string | undefined): DemoFinding[] {
  const wanted = (filter ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  if (wanted.length === 0) return DEMO_FINDINGS.filter((d) => (DEFAULT_FINDING_LANGUAGES as readonly string[]).includes(d.language));
  if (wanted.includes('all')) return [...DEMO_FINDINGS];
  const known = new Set(DEMO_FINDINGS.map((d) => d.language));
  const unknown = wanted.filter((w) => !known.has(w));
  if (unknown.length > 0) throw new Error(`BENCH_FINDINGS_LANGUAGES: no demo file for ${unknown.join(', ')}; known: ${[...known].join(', ')} (or all)`);
  return DEMO_FINDINGS.filter((d) => wanted.includes(d.language));
}

/** One language's figures, ms (a finding that never showed is left out and counted in `missing`). */
export interface FindingRow {
  language: string;
  file: string;
  /** The 1-minute load average as the row's first measurement began. */
  load: number;
  /** The file opened first in a new session whose task HOME has no server installed yet. */
  firstUseMs: number | undefined;
  /** A new session, the server installed, the file opened first. */
  coldMs: number[];
  /** The same server alone over stdio from spawn, measured alternately with `coldMs`. */
  stdioMs: number[];
  /** The file closed and reopened in the cold session, its server running. */
  warmMs: number[];
  /** Measurements that gave up without a finding. */
  missing: number;
}

/** Median of what was measured, or undefined when nothing was. */
export function medianOf(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** ms as whole numbers, '-' for nothing measured. */
export function ms(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(0);
}

/** The product's figure over the server alone, as `1.08x`; '-' when either is missing. */
export function ratio(product: number | undefined, alone: number | undefined): string {
  return product === undefined || alone === undefined || alone <= 0 ? '-' : `${(product / alone).toFixed(2)}x`;
}

export const FINDING_HEADERS = ['language', 'file', 'load', 'stdio from spawn', 'cold', 'cold / stdio', 'first use', 'first use / stdio', 'warm', 'missing'];

/** A row's cells: the server alone (median), then cold and first use each with its ratio to it, then warm. */
export function findingCells(row: FindingRow): string[] {
  const cold = medianOf(row.coldMs);
  const stdio = medianOf(row.stdioMs);
  return [
    row.language,
    row.file,
    row.load.toFixed(2),
    ms(stdio),
    ms(cold),
    ratio(cold, stdio),
    ms(row.firstUseMs),
    ratio(row.firstUseMs, stdio),
    ms(medianOf(row.warmMs)),
    String(row.missing),
  ];
}
