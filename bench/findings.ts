/**
 * Time from the click on a demo file to its first finding, the way a person waits for it: the
 * press on the file's row in the Files tree (its folders already expanded) until the first frame
 * that draws its entry in the Problems panel, timed in the page (findingTimer.ts), with every demo
 * language switched on (auto-install on), beside the same server alone over stdio from spawn to
 * its first diagnostic for the same file, measured alternately. BENCH_FINDINGS_TRACE=1 prints each
 * cold session's language frames up to that frame (findingTrace.ts).
 *
 * Per language, in one task HOME shared by the run (npm installs come from this machine's npm cache):
 * - first use: a new session, the file opened first, its server installed into the HOME on the way;
 * - cold: a new session (a new task host, every server launched fresh), the file opened first;
 * - warm: the file closed and reopened in that session while its server runs;
 * - stdio: the same server alone (findingsStdio.ts), after each cold session.
 * One Chromium serves the run; each session gets a context of its own (no cookie, storage or cache
 * from the one before). Each row is handed to `onRow` as soon as it is measured.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { LanguageId } from '@kandev/protocol';
import { launchChromium, newContext, type LaunchedBrowser } from '../test/support/browser.js';
import { openSession, putSettings } from '../test/support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../test/support/stack.js';
import { DEMO_FINDINGS, type DemoFinding, type FindingRow } from './findingRows.js';
import { stdioFirstFinding } from './findingsStdio.js';
import { armFindingTimer, timedFinding } from './findingTimer.js';
import { findingTimeline, traceLanguageFrames, traceMarkers } from './findingTrace.js';

/** The languages whose server agentctl installs into the task HOME (the others this machine has on the task PATH). */
export const INSTALLED = ['json', 'yaml', 'shell', 'dockerfile', 'css', 'html', 'php', 'prisma', 'svelte', 'vim', 'erb', 'vue', 'astro', 'graphql'] as const;

/** BENCH_FINDINGS_TRACE=1: each cold session also prints its language frames up to the drawn entry (findingTrace.ts). */
const TRACE = process.env.BENCH_FINDINGS_TRACE === '1';

/** A finding that has not shown by then is counted missing, so one broken server cannot hold the bench for long. */
const FINDING_TIMEOUT_MS = 60_000;
/**
 * First use installs the server on the way: graphql-language-service-cli alone took over 40 s from
 * npm's cache at a load average of 20, and a session given up on cancels its install.
 */
const FIRST_USE_TIMEOUT_MS = 240_000;

/**
 * Expands the file's folders, then times the click on its row until its Problems entry is drawn, on
 * the page's clock (findingTimer.ts); undefined when none came.
 */
async function timeToFinding(page: Page, file: string, timeoutMs = FINDING_TIMEOUT_MS): Promise<number | undefined> {
  const parents = file.split('/').slice(0, -1);
  for (let i = 1; i <= parents.length; i++) {
    const node = page.locator(`[data-testid="tree-node"][data-path="${parents.slice(0, i).join('/')}"]`);
    if ((await node.getAttribute('aria-expanded')) !== 'true') await node.click();
  }
  const row = page.locator(`[data-testid="tree-node"][data-path="${file}"]`);
  await row.waitFor();
  await armFindingTimer(page, file);
  if (TRACE) await traceMarkers(page);
  await row.click();
  return timedFinding(page, timeoutMs);
}

async function closeTab(page: Page, file: string): Promise<void> {
  await page.locator(`[data-testid="editor-tab"][data-path="${file}"] .tab-close`).click();
  await page.locator(`[data-testid="editor-tab"][data-path="${file}"]`).waitFor({ state: 'detached' });
}

/** A new task and session on a fresh copy of the demo, the page open on it; `use` runs, then both end. */
async function inNewSession<T>(bench: FindingsRun, demo: DemoFinding, use: (page: Page) => Promise<T>): Promise<T> {
  const { stack, env, browser } = bench;
  const task = await stack.createTask({ title: `bench findings ${demo.language}`, workspace: copyDemoWorkspace(), env });
  if (demo.trusted) await stack.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
  const sessionId = (await stack.startSession(task.id)).id;
  const context = await newContext(browser.browser);
  if (TRACE) await traceLanguageFrames(context);
  try {
    const page = await context.newPage();
    await openSession(page, stack.url, sessionId);
    return await use(page);
  } finally {
    await context.close().catch(() => undefined);
    await stack.api(`/api/sessions/${sessionId}/stop`, { method: 'POST', body: {} }).catch(() => undefined);
  }
}

interface FindingsRun {
  stack: RunningStack;
  env: Record<string, string>;
  home: string;
  browser: LaunchedBrowser;
}

/** One language's row: first use, then `rounds` of a cold session (with its warm reopen) and the server alone, alternately. */
async function measureLanguage(bench: FindingsRun, demo: DemoFinding, rounds: number): Promise<FindingRow> {
  const row: FindingRow = {
    language: demo.language,
    file: demo.file,
    load: loadavg()[0] ?? 0,
    firstUseMs: undefined,
    coldMs: [],
    stdioMs: [],
    warmMs: [],
    missing: 0,
  };
  const count = (ms: number | undefined, into?: number[]): number | undefined => {
    if (ms === undefined) row.missing++;
    else into?.push(ms);
    return ms;
  };
  row.firstUseMs = count(await inNewSession(bench, demo, (page) => timeToFinding(page, demo.file, FIRST_USE_TIMEOUT_MS)));
  const workspace = copyDemoWorkspace();
  try {
    for (let round = 0; round < rounds; round++) {
      await inNewSession(bench, demo, async (page) => {
        if (count(await timeToFinding(page, demo.file), row.coldMs) === undefined) return;
        if (TRACE) console.log(`${demo.language} cold, round ${round + 1}, from the press on its row:\n${await findingTimeline(page)}`);
        await closeTab(page, demo.file);
        count(await timeToFinding(page, demo.file), row.warmMs);
      });
      count(await stdioFirstFinding(demo.language as LanguageId, workspace, demo.file, bench.home, FINDING_TIMEOUT_MS), row.stdioMs);
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
  return row;
}

/**
 * Every demo language switched on with auto-install, as the demo's README advises, and a task HOME
 * of its own (npm installs come from this machine's npm cache). `dispose` removes that HOME.
 */
export async function wholeDemoOn(stack: RunningStack): Promise<{ env: Record<string, string>; home: string; dispose(): void }> {
  await putSettings(stack, { lsp_auto_start_languages: DEMO_FINDINGS.map((d) => d.language), lsp_auto_install_languages: [...INSTALLED] });
  const home = mkdtempSync(join(tmpdir(), 'kandev-bench-demo-home-'));
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  return { env: { HOME: home, npm_config_cache: npmCache }, home, dispose: () => rmSync(home, { recursive: true, force: true }) };
}

/** Each of `languages` measured in turn (see the file's comment), every row handed to `onRow` as soon as it is measured. */
export async function findingTimes(
  stack: RunningStack,
  languages: readonly DemoFinding[],
  rounds: number,
  onRow: (row: FindingRow) => void = () => undefined,
): Promise<FindingRow[]> {
  const { env, home, dispose } = await wholeDemoOn(stack);
  const browser = await launchChromium();
  try {
    const rows: FindingRow[] = [];
    for (const demo of languages) {
      const row = await measureLanguage({ stack, env, home, browser }, demo, rounds);
      rows.push(row);
      onRow(row);
    }
    return rows;
  } finally {
    await browser.close();
    dispose();
  }
}
