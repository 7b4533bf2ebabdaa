/**
 * The first keystrokes after a big file opens (part of `npm run bench -- typing`): a fresh session
 * (a new server) per row, the file opened from the tree, and `export const z = v1.` typed at its
 * end 3 s after the status shows Ready, or at once. Beside it the same server alone over stdio,
 * spawned, the file opened, the same wait, the same edits, then the completion: the time from the
 * trigger to the answer. What the page sent meanwhile is counted from its socket: the editor's own
 * requests, and those it cancelled at the server ($/cancelRequest) because the person typed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileUri } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { launchChromium, newContext } from '../test/support/browser.js';
import { repoRoot } from '../test/support/build.js';
import { openFile, openSession, waitForLspState } from '../test/support/page.js';
import type { RunningStack } from '../test/support/stack.js';
import { StdioLspClient } from '../test/support/stdioClient.js';
import { median } from './stats.js';
import { bigTs, EDIT, KEY_DELAY_MS, timeSuggestList, TRIGGER, typeOverStdio, TYPING_SIZES } from './typing.js';

export const AFTER_READY_WAITS_MS = [3_000, 0];
/**
 * Rounds per row, browser and stdio alternately, each a fresh session or a fresh server: one cold
 * sample of either side moved the 1k row from 1.28x to 1.89x between runs on a quiet machine, so a
 * row is the median of each side (BENCH_AFTER_READY_ROUNDS overrides).
 */
export const AFTER_READY_ROUNDS = Number(process.env.BENCH_AFTER_READY_ROUNDS) || 3;

/** Sizes and waits to measure: BENCH_AFTER_READY_SIZES=10000 and BENCH_AFTER_READY_WAITS=3000 run one row. */
const listFromEnv = (name: string, all: readonly number[]): readonly number[] => process.env[name]?.split(',').map(Number) ?? all;
/** A directory to write each row's frames into (time, direction, id, method), to see what the page sent and the server answered first. */
const TRACE_DIR = process.env.BENCH_AFTER_READY_TRACE;
// Made here: a directory that did not exist failed the row after it was measured.
if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });

export interface AfterReadyRow {
  lines: number;
  /** Typing started this long after the status showed Ready. */
  waitMs: number;
  /** Trigger typed -> suggestion list visible (ms); NaN when no list showed (see `failure`). */
  browserMs: number;
  /** Why no list showed: the error the trigger's completion was answered with. */
  failure?: string;
  /** The same server over stdio: completion sent after the same edits -> answered (ms). */
  stdioMs: number;
  /** Requests the page sent from Ready to the list, by method (in the median browser round). */
  methods: Record<string, number>;
  /** $/cancelRequest the page sent meanwhile (in the median browser round). */
  cancels: number;
  /** Every round's figures, in the order measured: the row is the median of each side. */
  samples: { browserMs: number[]; stdioMs: number[] };
}

/** Request methods and cancellations the page sends, in order; every frame's head when tracing. */
function recordWire(page: Page): { methods: string[]; cancels: number; trace: string[]; triggerError?: string } {
  const seen: { methods: string[]; cancels: number; trace: string[]; triggerError?: string } = { methods: [], cancels: 0, trace: [] };
  /** The id of the completion asked at the trigger character, to hear its error answer. */
  let triggerId: number | undefined;
  const head = (dir: string, text: string) => {
    if (!TRACE_DIR) return;
    const id = /^\{"jsonrpc":"2\.0","id":(\d+)/.exec(text)?.[1] ?? /"id":(\d+)/.exec(text)?.[1] ?? '';
    const method = /"method":"([^"]+)"/.exec(text)?.[1] ?? (text.includes('"error"') ? '(error)' : '(answer)');
    seen.trace.push(`${Date.now()}\t${dir}\t${id}\t${method}\t${text.length}`);
  };
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      const text = String(f.payload);
      head('>', text);
      const method = /"method":"([^"]+)"/.exec(text)?.[1];
      if (method === '$/cancelRequest') seen.cancels++;
      else if (method && /^\{"jsonrpc":"2\.0","id":/.test(text)) seen.methods.push(method);
      if (method === 'textDocument/completion' && text.includes(`"triggerCharacter":${JSON.stringify(TRIGGER)}`))
        triggerId = Number(/"id":(\d+)/.exec(text)?.[1]);
    });
    ws.on('framereceived', (f) => {
      const text = String(f.payload);
      head('<', text);
      if (triggerId !== undefined && text.includes(`"id":${triggerId},"error"`)) seen.triggerError = /"message":"([^"]*)"/.exec(text)?.[1] ?? text;
    });
  });
  return seen;
}

type BrowserRound = Omit<AfterReadyRow, 'stdioMs' | 'samples'>;

async function browserRow(stack: RunningStack, taskId: string, lines: number, waitMs: number): Promise<BrowserRound> {
  const sessionId = (await stack.startSession(taskId)).id;
  const browser = await launchChromium();
  let trace: string[] = [];
  try {
    const page = await (await newContext(browser.browser)).newPage();
    const wire = recordWire(page);
    trace = wire.trace;
    if (TRACE_DIR) page.on('console', (m) => wire.trace.push(`${Date.now()}\tconsole\t${m.type()}\t${m.text()}`));
    await openSession(page, stack.url, sessionId);
    const path = `src/big${lines}.ts`;
    await openFile(page, path);
    await waitForLspState(page, 'typescript', 'ready', 180_000);
    const before = wire.methods.length;
    const cancelsBefore = wire.cancels;
    if (waitMs > 0) await page.waitForTimeout(waitMs);
    await page.evaluate(() => {
      const editor = (window as any).__kandev.monaco.editor.getEditors().find((e: any) => e.getModel());
      const model = editor.getModel();
      const last = model.getLineCount();
      editor.setPosition({ lineNumber: last, column: model.getLineMaxColumn(last) });
      editor.focus();
    });
    await timeSuggestList(page);
    if (TRACE_DIR) await splitTriggerInPage(page);
    // Traced rows also profile the page from the first key to the list (a .cpuprofile beside the
    // frames). Started before the typing: started between the edit and the trigger, its setup put
    // a pause of half a second there, which the untraced rows and the stdio side do not have.
    const profiler = TRACE_DIR ? await page.context().newCDPSession(page) : undefined;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.send('Profiler.start');
    }
    wire.trace.push(`${Date.now()}\t-\ttyping`);
    await page.keyboard.type(EDIT, { delay: KEY_DELAY_MS });
    await page.keyboard.type(TRIGGER);
    wire.trace.push(`${Date.now()}\t-\ttyped trigger`);
    // The list, or the trigger's completion answered with an error (no list follows one): the row says which.
    const deadline = Date.now() + 180_000;
    while (wire.triggerError === undefined && !(await page.evaluate(() => ((window as any).__typingTimes.list ?? -1) > 0))) {
      if (Date.now() > deadline) throw new Error(`no suggestion list within 180 s at ${lines} lines`);
      await page.waitForTimeout(100);
    }
    if (profiler && TRACE_DIR) {
      await page.waitForTimeout(50);
      const { profile } = await profiler.send('Profiler.stop');
      writeFileSync(join(TRACE_DIR, `after-ready-${lines}-${waitMs}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    }
    const times = await page.evaluate(
      () => (window as any).__typingTimes as { trigger: number; list: number; nextFrame?: number; sent?: number; read?: number },
    );
    if (TRACE_DIR)
      wire.trace.push(
        `${Date.now()}\t-\tin the page (ms after the trigger key): completion sent ${times.sent === undefined ? '?' : (times.sent - times.trigger).toFixed(1)}, its answer read ${times.read === undefined ? '?' : (times.read - times.trigger).toFixed(1)}, list drawn ${(times.list - times.trigger).toFixed(1)}, the next animation frame ${times.nextFrame === undefined ? '?' : (times.nextFrame - times.trigger).toFixed(1)}`,
      );
    const methods: Record<string, number> = {};
    for (const m of wire.methods.slice(before)) methods[m] = (methods[m] ?? 0) + 1;
    const failure = wire.triggerError;
    return {
      lines,
      waitMs,
      browserMs: failure === undefined ? times.list - times.trigger : NaN,
      ...(failure === undefined ? {} : { failure }),
      methods,
      cancels: wire.cancels - cancelsBefore,
    };
  } finally {
    if (TRACE_DIR) writeFileSync(join(TRACE_DIR, `after-ready-${lines}-${waitMs}-${Date.now()}.tsv`), trace.join('\n') + '\n');
    await browser.close();
    await stack.api(`/api/sessions/${sessionId}/stop`, { method: 'POST', body: {} }).catch(() => undefined);
  }
}

/**
 * Traced rows only: where the trigger's time goes in the page, on its clock. `sent` is when the
 * completion asked at the trigger character leaves on the socket, `read` when the page reads its
 * answer from the socket's message event (the app's handler running, after any queue on the main
 * thread). The socket exists already, so its prototype's send and the message event's data getter
 * are wrapped; both cost a little, which is why untraced rows do without.
 */
async function splitTriggerInPage(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const times = window.__typingTimes;
    let id;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      if (id === undefined && typeof data === 'string' && data.includes('"textDocument/completion"') && data.includes('"triggerCharacter":${JSON.stringify(TRIGGER)}')) {
        id = /"id":(\\d+)/.exec(data)?.[1];
        times.sent = performance.now();
      }
      return send.call(this, data);
    };
    const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data');
    Object.defineProperty(MessageEvent.prototype, 'data', {
      configurable: true,
      get() {
        const value = data.get.call(this);
        if (id !== undefined && times.read === undefined && typeof value === 'string' && value.startsWith('{"jsonrpc":"2.0","id":' + id + ',')) times.read = performance.now();
        return value;
      },
    });
  })()`);
}

/** The same server alone: spawn, initialize, open, the same wait, the same edits, then the completion. */
export async function stdioAfterOpen(workspace: string, lines: number, waitMs: number): Promise<number> {
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
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: bigTs(lines) } });
    if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    await typeOverStdio(client, uri, lines);
    const typed = EDIT + TRIGGER;
    const start = performance.now();
    const reply = await client.request('textDocument/completion', {
      textDocument: { uri },
      position: { line: lines, character: typed.length },
      context: { triggerKind: 2, triggerCharacter: TRIGGER },
    });
    if (reply.error) throw new Error(`completion failed: ${JSON.stringify(reply.error)}`);
    return performance.now() - start;
  } finally {
    client.child.kill();
  }
}

/** Every size and wait, `rounds` times browser and stdio alternately; `onRow` hears each row as it is measured. */
export async function afterReadyBench(
  stack: RunningStack,
  taskId: string,
  workspace: string,
  onRow: (row: AfterReadyRow) => void = () => undefined,
  sizes: readonly number[] = listFromEnv('BENCH_AFTER_READY_SIZES', TYPING_SIZES),
  waits: readonly number[] = listFromEnv('BENCH_AFTER_READY_WAITS', AFTER_READY_WAITS_MS),
  rounds = AFTER_READY_ROUNDS,
): Promise<AfterReadyRow[]> {
  const rows: AfterReadyRow[] = [];
  for (const lines of sizes)
    for (const waitMs of waits) {
      const browserRounds: BrowserRound[] = [];
      const stdioMs: number[] = [];
      for (let round = 0; round < rounds; round++) {
        browserRounds.push(await browserRow(stack, taskId, lines, waitMs));
        stdioMs.push(await stdioAfterOpen(workspace, lines, waitMs));
      }
      const row = { ...medianRound(browserRounds), stdioMs: median(stdioMs), samples: { browserMs: browserRounds.map((r) => r.browserMs), stdioMs } };
      rows.push(row);
      onRow(row);
    }
  return rows;
}

/** The round whose list showed at the median time; a round with no list (NaN) counts as the slowest. */
function medianRound(rounds: BrowserRound[]): BrowserRound {
  const slowestFirstNaN = (r: BrowserRound) => (Number.isNaN(r.browserMs) ? Infinity : r.browserMs);
  const sorted = [...rounds].sort((a, b) => slowestFirstNaN(a) - slowestFirstNaN(b));
  return sorted[Math.floor(sorted.length / 2)] as BrowserRound;
}
