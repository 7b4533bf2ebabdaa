/**
 * What a keystroke costs (`npm run bench -- typing`), in Chromium against the production build:
 *   - typing: files of 1k, 10k and 40k lines (`export const vN: number = N;`), `export const z = v1.`
 *     typed at the end; the time from the trigger character to a visible suggestion list, beside the
 *     same typescript-language-server's own time for the same completion after the same edits over
 *     direct stdio, and the requests the page sent per keystroke;
 *   - idle: requests per minute of an idle focused editor per demo language (every one, each file with its finding);
 *   - quick open over 100,000 files: time to the first results and to the complete list;
 *   - memory: the page's JS heap before opening the 40k-line file, with it open, and after closing it.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileUri } from '@kandev/protocol';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium, newContext, type LaunchedBrowser } from '../test/support/browser.js';
import { repoRoot } from '../test/support/build.js';
import { openFile, openSession, waitForLspState } from '../test/support/page.js';
import type { RunningStack } from '../test/support/stack.js';
import { StdioLspClient } from '../test/support/stdioClient.js';
import { DEMO_FINDINGS } from './findingRows.js';

export const TYPING_SIZES = [1_000, 10_000, 40_000];
const WARM_SAMPLES = 3;

/** The middle value (an odd count: one of the samples). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
export const EDIT = 'export const z = v1';
export const TRIGGER = '.';
/** The pause between the edit's keystrokes in the page; the stdio side sends its changes at the same pace. */
export const KEY_DELAY_MS = 40;

/**
 * The edit and its trigger as the page sends them, one didChange per keystroke at the page's
 * pace, appended at the start of line `line`. Sent all at once, the server alone got to skip the
 * program updates a person's typing asks of it between keystrokes, so its figure was not for the
 * same edits.
 */
export async function typeOverStdio(client: StdioLspClient, uri: string, line: number, firstVersion = 1): Promise<void> {
  const typed = EDIT + TRIGGER;
  let version = firstVersion;
  for (let i = 0; i < typed.length; i++) {
    // The trigger follows the edit without a pause, as `keyboard.type(TRIGGER)` does after `keyboard.type(EDIT, …)`.
    if (i > 0 && i < EDIT.length) await new Promise((resolve) => setTimeout(resolve, KEY_DELAY_MS));
    client.notify('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [{ range: { start: { line, character: i }, end: { line, character: i } }, text: typed[i] }],
    });
  }
}

export function bigTs(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `export const v${i}: number = ${i};`).join('\n') + '\n';
}

/** A workspace of one big TypeScript file per size. */
export function typingWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'kandev-bench-typing-'));
  mkdirSync(join(root, 'src'));
  for (const n of TYPING_SIZES) writeFileSync(join(root, `src/big${n}.ts`), bigTs(n));
  writeFileSync(join(root, 'tsconfig.json'), '{ "compilerOptions": { "strict": true } }\n');
  return root;
}

/** LSP requests (frames with an id and a method) the page sends, counted from the page's sockets; and the URIs whose diagnostics arrived. */
function countRequests(page: Page): { total(): number; methods(): string[]; diagnosed: Set<string> } {
  const methods: string[] = [];
  const diagnosed = new Set<string>();
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      const text = String(f.payload);
      const method = /"method":"([^"]+)"/.exec(text)?.[1];
      if (method && /^\{"jsonrpc":"2\.0","id":/.test(text)) methods.push(method);
    });
    ws.on('framereceived', (f) => {
      const text = String(f.payload);
      if (text.includes('"textDocument/publishDiagnostics"')) diagnosed.add(/"uri":"([^"]+)"/.exec(text)?.[1] ?? '');
    });
  });
  return { total: () => methods.length, methods: () => [...methods], diagnosed };
}

/** Waits until the page has sent no request for `quietMs` (its first wave is done). */
async function settle(page: Page, requests: { total(): number }, quietMs = 3_000): Promise<void> {
  let last = requests.total();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await page.waitForTimeout(250);
    if (requests.total() !== last) {
      last = requests.total();
      since = Date.now();
    }
  }
}

/**
 * Arms the page's own timer: from the first keydown and from the trigger's keydown to the first frame
 * painted with a suggestion row shown (read back from `window.__typingTimes`).
 */
export async function timeSuggestList(page: Page): Promise<void> {
  // Timed in the page, on its own clock: from the trigger's keydown to the frame that draws a
  // suggestion row (Playwright's own polling would add tens of milliseconds to both ends).
  // A string: the bench runs under tsx, whose named-function helper does not exist in the page.
  await page.evaluate(`(() => {
    const times = (window.__typingTimes = { firstKey: undefined, trigger: undefined, list: undefined, nextFrame: undefined });
    function onKey(e) {
      times.firstKey ??= performance.now();
      if (e.key === ${JSON.stringify(TRIGGER)}) times.trigger = performance.now();
    }
    document.addEventListener('keydown', onKey, true);
    const observer = new MutationObserver(() => {
      if (times.trigger === undefined || times.list !== undefined) return;
      // Drawn rows, not the widget's "visible" class: Monaco adds that class 100 ms after it shows
      // the list (a marker for its own listeners), which would add 100 ms to every row here.
      const rows = [...document.querySelectorAll('.suggest-widget .monaco-list-row')];
      if (!rows.some((row) => row.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))) return;
      // Monaco places a content widget (its position, then its visibility) while it renders the
      // editor, in an animation frame: the rows turn visible inside the frame that paints them, so
      // that is the time. Waiting for the next animation frame, as this timer did, read one frame
      // late (nextFrame, kept for the trace: 16-17 ms after it at 60 Hz).
      times.list = performance.now();
      requestAnimationFrame(() => (times.nextFrame = performance.now()));
      observer.disconnect();
      document.removeEventListener('keydown', onKey, true);
    });
    // Monaco shows the widget by its style (and a marker attribute) when it places it in the
    // editor's next frame: watching classes alone read the list on the widget's next class change,
    // up to a frame or more later (measured 30 ms late at 1,000 lines).
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['class', 'style', 'monaco-visible-content-widget'],
    });
  })()`);
}

export interface TypingRow {
  lines: number;
  /** The session's first completion (the server builds its completion caches then) or a later one. */
  round: 'first in session' | 'warm';
  /** Trigger character typed -> suggestion list visible, in the browser (ms). */
  browserMs: number;
  /** First keystroke of the edit -> suggestion list visible (ms). */
  browserFromFirstKeyMs: number;
  /** The server's own completion after the same edits over stdio (ms). */
  stdioMs: number;
  /** Rounds measured on each side (the row shows the median round and the median stdio time). */
  samples: number;
  /** Requests the page sent while typing the edit, per keystroke. */
  requestsPerKeystroke: number;
  methods: Record<string, number>;
}

async function browserTyping(page: Page, requests: ReturnType<typeof countRequests>, lines: number): Promise<Omit<TypingRow, 'stdioMs' | 'round' | 'samples'>> {
  const path = `src/big${lines}.ts`;
  await openFile(page, path);
  await waitForLspState(page, 'typescript', 'ready', 180_000);
  // As over stdio below: the server has analysed the file (its diagnostics arrived) before typing starts.
  while (![...requests.diagnosed].some((uri) => uri.endsWith(`/${path}`))) await page.waitForTimeout(100);
  await settle(page, requests);
  await page.evaluate(() => {
    const monaco = (window as any).__kandev.monaco;
    const editor = monaco.editor.getEditors().find((e: any) => e.getModel());
    const model = editor.getModel();
    const last = model.getLineCount();
    editor.setPosition({ lineNumber: last, column: model.getLineMaxColumn(last) });
    editor.focus();
  });
  await timeSuggestList(page);
  const before = requests.total();
  await page.keyboard.type(EDIT, { delay: KEY_DELAY_MS });
  await page.keyboard.type(TRIGGER);
  await page.waitForFunction(() => ((window as any).__typingTimes.list ?? -1) > 0, undefined, { timeout: 120_000 });
  const times = await page.evaluate(() => (window as any).__typingTimes as { firstKey: number; trigger: number; list: number });
  const sent = requests.methods().slice(before);
  const methods: Record<string, number> = {};
  for (const m of sent) methods[m] = (methods[m] ?? 0) + 1;
  // Leave the file as it was for the next size: close the list and undo the edit.
  await page.keyboard.press('Escape');
  for (let i = 0; i <= EDIT.length; i++) await page.keyboard.press('Control+Z');
  return {
    lines,
    browserMs: times.list - times.trigger,
    browserFromFirstKeyMs: times.list - times.firstKey,
    requestsPerKeystroke: sent.length / (EDIT.length + TRIGGER.length),
    methods,
  };
}

/** The same server alone: open the file, the same edits as didChange, then completion after the trigger. */
async function stdioTyping(workspace: string, lines: number): Promise<number> {
  const client = new StdioLspClient(join(repoRoot, 'node_modules/.bin/typescript-language-server'), ['--stdio'], { cwd: workspace, env: process.env });
  try {
    const rootUri = pathToFileUri(workspace);
    await client.request('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'bench' }],
      capabilities: { textDocument: { completion: { completionItem: { snippetSupport: true } }, publishDiagnostics: {} } },
    });
    client.notify('initialized', {});
    const uri = pathToFileUri(join(workspace, `src/big${lines}.ts`));
    const text = bigTs(lines);
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
    await client.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === uri);
    const line = lines;
    await typeOverStdio(client, uri, line);
    const typed = EDIT + TRIGGER;
    const start = performance.now();
    const reply = await client.request('textDocument/completion', {
      textDocument: { uri },
      position: { line, character: typed.length },
      context: { triggerKind: 2, triggerCharacter: TRIGGER },
    });
    const ms = performance.now() - start;
    if (reply.error) throw new Error(`completion failed: ${JSON.stringify(reply.error)}`);
    return ms;
  } finally {
    client.child.kill();
  }
}

export async function typingBench(stack: RunningStack, sessionId: string, workspace: string): Promise<TypingRow[]> {
  const browser = await launchChromium();
  try {
    const page = await (await newContext(browser.browser)).newPage();
    const requests = countRequests(page);
    await openSession(page, stack.url, sessionId);
    const rows: TypingRow[] = [];
    // The first size twice: the session's first completion pays the server's one-time warm-up (the
    // identifiers typed before the trigger ask for global completions, auto-imports included), which
    // the stdio side, asked once after the edits, never sees. Both are reported.
    const rounds = [
      { lines: TYPING_SIZES[0] as number, round: 'first in session' as const },
      ...TYPING_SIZES.map((lines) => ({ lines, round: 'warm' as const })),
    ];
    for (const { lines, round } of rounds) {
      // Warm rows take the median of a few rounds on each side: one sample of a fresh stdio server
      // moved between 90 and 700 ms at 1k lines from run to run on this shared machine.
      const samples = round === 'warm' ? WARM_SAMPLES : 1;
      const inBrowser: Array<Omit<TypingRow, 'stdioMs' | 'round' | 'samples'>> = [];
      const stdio: number[] = [];
      for (let i = 0; i < samples; i++) {
        inBrowser.push(await browserTyping(page, requests, lines));
        stdio.push(await stdioTyping(workspace, lines));
      }
      const typical = inBrowser.find((r) => r.browserMs === median(inBrowser.map((b) => b.browserMs))) as Omit<TypingRow, 'stdioMs' | 'round' | 'samples'>;
      rows.push({ ...typical, round, stdioMs: median(stdio), samples });
    }
    return rows;
  } finally {
    await browser.close();
  }
}

export interface IdleRow {
  language: string;
  file: string;
  windowMs: number;
  requestsPerMinute: number;
  methods: Record<string, number>;
}

/**
 * An idle focused editor per demo language (each with its finding, as the demo is meant to be
 * seen): after its first wave settles, the requests of `windowMs` more.
 */
export async function idleBench(stack: RunningStack, sessionId: string, windowMs: number): Promise<IdleRow[]> {
  const browser = await launchChromium();
  const rows: IdleRow[] = [];
  try {
    // The task is not trusted: the languages that need trust would never start.
    for (const { language, file } of DEMO_FINDINGS.filter((d) => !d.trusted)) {
      const page = await (await newContext(browser.browser)).newPage();
      const requests = countRequests(page);
      await openSession(page, stack.url, sessionId);
      await openFile(page, file);
      await waitForLspState(page, language, 'ready', 180_000);
      await page.evaluate(() => {
        const editor = (window as any).__kandev?.monaco?.editor.getEditors().find((e: any) => e.getModel());
        editor?.setPosition({ lineNumber: 1, column: 1 });
        editor?.focus();
      });
      await settle(page, requests, 5_000);
      const before = requests.total();
      await page.waitForTimeout(windowMs);
      const sent = requests.methods().slice(before);
      const methods: Record<string, number> = {};
      for (const m of sent) methods[m] = (methods[m] ?? 0) + 1;
      rows.push({ language, file, windowMs, requestsPerMinute: (sent.length * 60_000) / windowMs, methods });
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/** A workspace of `count` files in folders of 100. */
export function manyFilesWorkspace(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'kandev-bench-files-'));
  for (let folder = 0; folder * 100 < count; folder++) {
    const dir = join(root, `pkg${folder}`);
    mkdirSync(dir);
    for (let i = 0; i < 100 && folder * 100 + i < count; i++) writeFileSync(join(dir, `file${i}.ts`), '');
  }
  return root;
}

export interface QuickOpenRow {
  files: number;
  firstResultsMs: number;
  completeMs: number;
}

/** Ctrl+P over a big workspace: first results while it lists, then the complete list. */
export async function quickOpenBench(stack: RunningStack, sessionId: string, files: number): Promise<QuickOpenRow> {
  const browser = await launchChromium();
  try {
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    const start = performance.now();
    await page.keyboard.press('Control+P');
    await page.locator('[data-testid="quick-open-item"]').first().waitFor({ timeout: 300_000 });
    const firstResultsMs = performance.now() - start;
    await page.locator('[data-testid="quick-open-listing"]').waitFor({ state: 'detached', timeout: 600_000 });
    const completeMs = performance.now() - start;
    return { files, firstResultsMs, completeMs };
  } finally {
    await browser.close();
  }
}

export interface HeapRow {
  lines: number;
  beforeMiB: number;
  openMiB: number;
  closedMiB: number;
}

async function heapMiB(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize / (1024 * 1024);
}

/** The page's JS heap (after a collection) before opening the big file, with it open and ready, after closing it. */
export async function heapBench(stack: RunningStack, sessionId: string, lines: number): Promise<HeapRow> {
  const browser: LaunchedBrowser = await launchChromium();
  try {
    const context = await newContext(browser.browser);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await openSession(page, stack.url, sessionId);
    await openFile(page, 'tsconfig.json');
    const beforeMiB = await heapMiB(cdp);
    const path = `src/big${lines}.ts`;
    await openFile(page, path);
    await waitForLspState(page, 'typescript', 'ready', 180_000);
    await page.locator(`[data-testid="outline-rows"]`).waitFor({ timeout: 180_000 });
    const openMiB = await heapMiB(cdp);
    await page.locator(`[data-testid="editor-tab"][data-path="${path}"] .tab-close`).click();
    await page.locator(`[data-testid="editor-tab"][data-path="${path}"]`).waitFor({ state: 'detached' });
    await page.waitForTimeout(1_000);
    const closedMiB = await heapMiB(cdp);
    return { lines, beforeMiB, openMiB, closedMiB };
  } finally {
    await browser.close();
  }
}
