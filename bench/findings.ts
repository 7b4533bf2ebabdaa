/**
 * Time from opening each demo file to its first finding, the way a person sees it: the click on the
 * file in the Files tree until its entry shows in the Problems panel, with every language of the
 * demo switched on (auto-install on).
 *
 * - first use: the servers are installed into the task's HOME on the way (npm, from its cache);
 * - cold: a new session on a fresh task host, so every server launches and initializes;
 * - warm: the same file closed and opened again while its server runs (document reopened only).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, newContext } from '../test/support/browser.js';
import { openFile, openSession, putSettings } from '../test/support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../test/support/stack.js';

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
const FINDING_TIMEOUT_MS = 240_000;

export interface FindingRow {
  language: string;
  file: string;
  firstUseMs: number | undefined;
  coldMs: number[];
  warmMs: number[];
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

/** One session: every demo file opened in turn (cold or first use), then each closed and reopened (warm). */
async function oneSession(stack: RunningStack, env: Record<string, string>): Promise<{ cold: Array<number | undefined>; warm: Array<number | undefined> }> {
  const task = await stack.createTask({ title: 'bench findings', workspace: copyDemoWorkspace(), env });
  const sessionId = (await stack.startSession(task.id)).id;
  const browser = await launchChromium();
  try {
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    const cold: Array<number | undefined> = [];
    for (const { file } of DEMO_FINDINGS) cold.push(await timeToFinding(page, file));
    const warm: Array<number | undefined> = [];
    for (const { file } of DEMO_FINDINGS) {
      await closeTab(page, file);
      warm.push(await timeToFinding(page, file));
    }
    await stack.api(`/api/sessions/${sessionId}/stop`, { method: 'POST', body: {} }).catch(() => undefined);
    return { cold, warm };
  } finally {
    await browser.close();
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

export async function findingTimes(stack: RunningStack, rounds: number): Promise<FindingRow[]> {
  const { env, dispose } = await wholeDemoOn(stack);
  try {
    const first = await oneSession(stack, env);
    const rows: FindingRow[] = DEMO_FINDINGS.map((d, i) => ({ ...d, firstUseMs: first.cold[i], coldMs: [], warmMs: [] }));
    const keep = (list: number[], value: number | undefined) => value !== undefined && list.push(value);
    first.warm.forEach((ms, i) => keep(rows[i]!.warmMs, ms));
    for (let round = 0; round < rounds; round++) {
      const { cold, warm } = await oneSession(stack, env);
      cold.forEach((ms, i) => keep(rows[i]!.coldMs, ms));
      warm.forEach((ms, i) => keep(rows[i]!.warmMs, ms));
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
