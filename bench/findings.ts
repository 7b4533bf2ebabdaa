/**
 * Time from opening each demo file to its first finding, the way a person sees it: the click on the
 * file in the Files tree until its entry shows in the Problems panel, with every language of the
 * demo switched on (auto-install on).
 *
 * - first use: the servers are installed into the task's HOME on the way (npm, from its cache);
 * - cold: a new session on a fresh task host, the file opened first, so its server launches and initializes;
 * - warm: the same file closed and opened again while its server runs (document reopened only);
 * - stdio: the same server alone, from spawn to its first diagnostic for the file (findingsStdio.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, newContext } from '../test/support/browser.js';
import { openFile, openSession, putSettings } from '../test/support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../test/support/stack.js';
import type { LanguageId } from '@kandev/protocol';
import { stdioFirstFinding } from './findingsStdio.js';

/** The demo's file with a finding, per language (demo/workspace/README.md lists them). */
export const DEMO_FINDINGS: ReadonlyArray<{ language: string; file: string }> = [
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
];
const INSTALLED = ['json', 'yaml', 'shell', 'dockerfile', 'css', 'html', 'php', 'prisma'];
/** A finding that has not shown by then is reported missing ('-'), so one broken server cannot hold the bench for long. */
const FINDING_TIMEOUT_MS = 60_000;

export interface FindingRow {
  language: string;
  file: string;
  firstUseMs: number | undefined;
  coldMs: number[];
  warmMs: number[];
  /** The same server alone over stdio: spawn to its first diagnostic for the file. */
  stdioMs: number[];
}

/** Opens `file` from the tree and waits for its Problems entry; ms, or undefined when none came. */
async function timeToFinding(page: Page, file: string): Promise<number | undefined> {
  const start = performance.now();
  await openFile(page, file);
  let ms: number | undefined;
  try {
    await page.locator(`[data-testid="problems-group"][data-path="${file}"]`).waitFor({ timeout: FINDING_TIMEOUT_MS });
    ms = performance.now() - start;
  } catch {
    ms = undefined;
  }
  await collapseTopFolder(page, file);
  return ms;
}

/** Folds the file's top folder again so the next file's row is in view (the tree stays short). */
async function collapseTopFolder(page: Page, file: string): Promise<void> {
  if (!file.includes('/')) return;
  const node = page.locator(`[data-testid="tree-node"][data-path="${file.split('/')[0]}"]`);
  if ((await node.getAttribute('aria-expanded')) === 'true') await node.click();
}

async function closeTab(page: Page, file: string): Promise<void> {
  await page.locator(`[data-testid="editor-tab"][data-path="${file}"] .tab-close`).click();
  await page.locator(`[data-testid="editor-tab"][data-path="${file}"]`).waitFor({ state: 'detached' });
}

/** First use: one session with a fresh HOME, every demo file opened in turn (servers installed on the way). */
async function firstUseSession(
  stack: RunningStack,
  env: Record<string, string>,
  onFile: (file: string, ms: number | undefined) => void,
): Promise<Array<number | undefined>> {
  const task = await stack.createTask({ title: 'bench findings first use', workspace: copyDemoWorkspace(), env });
  const sessionId = (await stack.startSession(task.id)).id;
  const browser = await launchChromium();
  try {
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    const times: Array<number | undefined> = [];
    for (const { file } of DEMO_FINDINGS) {
      times.push(await timeToFinding(page, file));
      onFile(file, times[times.length - 1]);
    }
    return times;
  } finally {
    await browser.close();
    await stack.api(`/api/sessions/${sessionId}/stop`, { method: 'POST', body: {} }).catch(() => undefined);
  }
}

/** Cold and warm for one file: a new session (its task host and every server launched fresh), the file opened first, then closed and reopened. */
async function coldSession(stack: RunningStack, env: Record<string, string>, file: string): Promise<{ cold: number | undefined; warm: number | undefined }> {
  const task = await stack.createTask({ title: 'bench findings', workspace: copyDemoWorkspace(), env });
  const sessionId = (await stack.startSession(task.id)).id;
  const browser = await launchChromium();
  try {
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    const cold = await timeToFinding(page, file);
    if (cold === undefined) return { cold, warm: undefined };
    await closeTab(page, file);
    return { cold, warm: await timeToFinding(page, file) };
  } finally {
    await browser.close();
    await stack.api(`/api/sessions/${sessionId}/stop`, { method: 'POST', body: {} }).catch(() => undefined);
  }
}

/**
 * Every demo language switched on with auto-install, as the demo's README advises, and a task HOME
 * of its own (npm installs come from this machine's npm cache). `dispose` removes that HOME.
 */
export async function wholeDemoOn(stack: RunningStack): Promise<{ env: Record<string, string>; dispose(): void }> {
  await putSettings(stack, { lsp_auto_start_languages: DEMO_FINDINGS.map((d) => d.language), lsp_auto_install_languages: INSTALLED });
  const home = mkdtempSync(join(tmpdir(), 'kandev-bench-demo-home-'));
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  return { env: { HOME: home, npm_config_cache: npmCache }, dispose: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * Every row as it is measured (`onRow`): first use for every file in one session, then per language
 * `rounds` cold sessions (the file opened first in a new session) with their warm reopen, beside the
 * same server alone over stdio from spawn, alternately.
 */
export async function findingTimes(
  stack: RunningStack,
  rounds: number,
  onRow: (row: FindingRow) => void = () => undefined,
  languages = DEMO_FINDINGS,
): Promise<FindingRow[]> {
  const { env, dispose } = await wholeDemoOn(stack);
  try {
    const firstUse = new Map<string, number | undefined>();
    await firstUseSession(stack, env, (file, ms) => firstUse.set(file, ms));
    const rows: FindingRow[] = [];
    const demo = copyDemoWorkspace();
    for (const { language, file } of languages) {
      const row: FindingRow = { language, file, firstUseMs: firstUse.get(file), coldMs: [], warmMs: [], stdioMs: [] };
      for (let round = 0; round < rounds; round++) {
        const { cold, warm } = await coldSession(stack, env, file);
        if (cold !== undefined) row.coldMs.push(cold);
        if (warm !== undefined) row.warmMs.push(warm);
        const stdio = await stdioFirstFinding(language as LanguageId, demo, file);
        if (stdio !== undefined) row.stdioMs.push(stdio);
      }
      rows.push(row);
      onRow(row);
    }
    return rows;
  } finally {
    dispose();
  }
}

/** Median of what was measured, or undefined when nothing was. */
export function medianOf(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
