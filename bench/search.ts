/**
 * Workspace search at scale: a generated tree (13k files, ~320 MB, under /tmp, deleted after),
 * searched for a rare string and for nothing, by plain ripgrep and by the product (agentctl's files
 * search with ripgrep, and with its walker), each as a client sees it (the whole answer read).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TASK_HOST_PATHS } from '@kandev/protocol';
import { findRipgrep } from '../apps/agentctl/src/files/search/ripgrep.js';
import { startAgentctl, type RunningAgentctl } from '../apps/agentctl/src/testing/agentctlProcess.js';
import type { RunningStack } from '../test/support/stack.js';
import { authHeaders } from '../test/support/access.js';

export const TREE = { files: Number(process.env.BENCH_SEARCH_FILES ?? 13_000), fileBytes: 25 * 1024 };
export const RARE = 'zqxRareNeedle42';
export const NOTHING = 'this-string-is-nowhere-9f3c1';
const REPEATS = 3;

const WORDS = [
  'const',
  'value',
  'return',
  'function',
  'import',
  'export',
  'string',
  'number',
  'await',
  'async',
  'result',
  'config',
  'handler',
  'request',
  'response',
  'buffer',
];

function chunk(seed: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  let x = (seed * 2654435761) >>> 0;
  while (size < bytes) {
    let line = '';
    for (let w = 0; w < 10; w++) {
      x = (x * 1103515245 + 12345) >>> 0;
      line += `${WORDS[x % WORDS.length]}${x % 97} `;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** 13k text files in nested folders; the rare string is in exactly three of them. */
export function generateTree(): { root: string; bytes: number } {
  const root = mkdtempSync(join(tmpdir(), 'kandev-bench-search-'));
  const pool = Array.from({ length: 32 }, (_, i) => chunk(i + 1, TREE.fileBytes));
  let bytes = 0;
  const rareAt = new Set([Math.floor(TREE.files * 0.1), Math.floor(TREE.files * 0.5), TREE.files - 7]);
  for (let i = 0; i < TREE.files; i++) {
    const dir = join(root, `pkg${i % 40}`, `mod${Math.floor(i / 40) % 25}`);
    if (i < 1000) mkdirSync(dir, { recursive: true });
    const text = rareAt.has(i) ? `// ${RARE} here\n${pool[i % pool.length]}` : `// file ${i}\n${pool[i % pool.length]}`;
    writeFileSync(join(dir, `f${i}.ts`), text);
    bytes += text.length;
  }
  return { root, bytes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function plainRg(rg: string, root: string, query: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ['--fixed-strings', '--ignore-case', '--', query], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

async function productSearch(agentctl: RunningAgentctl, query: string, expectHits: number): Promise<void> {
  const res = await agentctl.api(`${TASK_HOST_PATHS.search}?stream=1&q=${encodeURIComponent(query)}`);
  const text = await res.text();
  const hits = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; hits?: unknown[] })
    .reduce((n, l) => n + (l.hits?.length ?? 0), 0);
  if (hits !== expectHits) throw new Error(`search for ${query}: ${hits} hits, expected ${expectHits}`);
}

async function backendSearch(stack: RunningStack, sessionId: string, query: string, expectHits: number): Promise<void> {
  const res = await fetch(`${stack.url}/api/sessions/${sessionId}/search?stream=1&q=${encodeURIComponent(query)}`, { headers: authHeaders() });
  const text = await res.text();
  const hits = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { hits?: unknown[] })
    .reduce((n, l) => n + (l.hits?.length ?? 0), 0);
  if (hits !== expectHits) throw new Error(`backend search for ${query}: ${hits} hits, expected ${expectHits}`);
}

export interface SearchBenchRow {
  engine: string;
  rareMs: number;
  nothingMs: number;
}

export async function searchBench(stack: RunningStack | undefined): Promise<{ rows: SearchBenchRow[]; files: number; mib: number }> {
  const rg = findRipgrep(process.env);
  const { root, bytes } = generateTree();
  const rows: SearchBenchRow[] = [];
  const noRgBin = mkdtempSync(join(tmpdir(), 'kandev-bench-norg-'));
  symlinkSync(process.execPath, join(noRgBin, 'node'));
  try {
    if (rg) {
      await plainRg(rg, root, RARE); // the page cache is warm for everyone after this
      rows.push({
        engine: 'plain rg (reference)',
        rareMs: await timed(() => plainRg(rg, root, RARE)),
        nothingMs: await timed(() => plainRg(rg, root, NOTHING)),
      });
    }
    const engines: Array<[string, string]> = rg
      ? [
          ['agentctl, ripgrep', `${dirname(rg)}:${noRgBin}`],
          ['agentctl, walker (no rg)', noRgBin],
        ]
      : [['agentctl, walker (no rg)', noRgBin]];
    for (const [label, path] of engines) {
      const agentctl = await startAgentctl({ workspace: root, env: { PATH: path, HOME: join(root, '..') } });
      try {
        await productSearch(agentctl, RARE, 3);
        rows.push({
          engine: label,
          rareMs: await timed(() => productSearch(agentctl, RARE, 3)),
          nothingMs: await timed(() => productSearch(agentctl, NOTHING, 0)),
        });
      } finally {
        await agentctl.stop();
      }
    }
    if (stack) {
      const task = await stack.createTask({ title: 'bench search', workspace: root });
      const session = await stack.startSession(task.id);
      await backendSearch(stack, session.id, RARE, 3);
      rows.push({
        engine: 'browser API -> backend -> agentctl',
        rareMs: await timed(() => backendSearch(stack, session.id, RARE, 3)),
        nothingMs: await timed(() => backendSearch(stack, session.id, NOTHING, 0)),
      });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(noRgBin, { recursive: true, force: true });
  }
  return { rows, files: TREE.files, mib: bytes / 1048576 };
}
