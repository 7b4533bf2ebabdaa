import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  openFile,
  openSession,
  putSettings,
  setCaret,
  startEditorStack,
  startFakeSession,
  suggestRows,
  waitForLspState,
  type FakeSession,
} from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * Quick suggestions paced by what word lists cost the server (docs/performance.md), in Chromium
 * against the fake installed as `kotlin-lsp`, whose first completion answer takes 800 ms (as
 * tsserver's list of a workspace exporting 50,000 names does) and every later one is immediate.
 * While nothing is known of the server's word lists, the first one waits for a pause in typing (the
 * first list of a session is the dearest); once a word list was that slow, typing on sends no word
 * list until a pause either, and the `.` typed at the end asks at once. Without the pacing, the
 * first letter and each new word typed after the slow answer ask at once (Monaco's own delay is
 * 10 ms), so a request follows a keystroke closely.
 *
 * The typing runs on the page's clock (Playwright's fake clock, paused): keystrokes are 120 ms of
 * page time apart and page time moves only when the test moves it, so "how long after the last
 * keystroke a word list went out" is exact, whatever the load on the machine. Requests are stamped
 * with the page's clock as the page hands them to its LSP socket.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const source = ['package demo', '', 'fun main() {', '    ', '}', ''].join('\n');
const TYPED = 'al total = count + offset * scale - base + extra';
const SLOW_FIRST_LIST_MS = 800;
/** The pause quick suggestions wait for while lists are unmeasured or slow (docs/performance.md). */
const PAUSE_MS = 300;
/** A steady typist's gap between keystrokes: above Monaco's own 10 ms, below the pause. */
const KEY_GAP_MS = 120;

const script: FakeScript = {
  capabilities: { textDocumentSync: { openClose: true, change: 2 }, completionProvider: { triggerCharacters: ['.'] } },
  rules: {
    'textDocument/completion': [
      {
        sequence: 'completion',
        steps: [
          [{ delayMs: SLOW_FIRST_LIST_MS }, { respond: { isIncomplete: false, items: [{ label: 'valueSlow', kind: 6 }] } }],
          [{ respond: { isIncomplete: false, items: [{ label: 'memberItem', kind: 2 }] } }],
        ],
      },
    ],
  },
};

interface SentCompletion {
  /** Page clock when the page sent it. */
  at: number;
  position: { line: number; character: number };
  context?: { triggerKind: number; triggerCharacter?: string };
}

/** Stamps every completion request the page sends on its LSP sockets with the page's clock. */
async function stampCompletions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    (window as unknown as { __completions: unknown[] }).__completions = sent;
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, data) {
      if (typeof data === 'string' && data.includes('"textDocument/completion"')) {
        const { params } = JSON.parse(data) as { params: { position: unknown; context?: unknown } };
        sent.push({ at: Date.now(), position: params.position, context: params.context });
      }
      return send.call(this, data);
    };
  });
}

const completionsSent = (page: Page) => page.evaluate(() => (window as unknown as { __completions: SentCompletion[] }).__completions);
const pageNow = (page: Page) => page.evaluate(() => Date.now());

describe.runIf(run)('quick suggestions wait for a pause once word lists are slow (fake kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  beforeAll(async () => {
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: ['kotlin'] });
    session = await startFakeSession(stack, { binary: 'kotlin-lsp', script, files: { [MAIN]: source } });
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await stampCompletions(page);
    // Installed, the page's clock runs with real time until it is paused below.
    await page.clock.install();
    await openSession(page, stack.url, session.sessionId);
    await openFile(page, MAIN);
    await waitForLspState(page, 'kotlin', 'ready');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('the first word list waits for a pause; after a slow one, typing on asks nothing until it pauses, and the trigger character asks at once', async () => {
    await setCaret(page, 4, 5);
    // Nothing is known of the server's word lists yet, so even the first waits for a pause in
    // typing: a pause-length after the keystroke, and not a millisecond before.
    await page.clock.pauseAt((await pageNow(page)) + 1_000);
    const firstKeyAt = await pageNow(page);
    await page.keyboard.type('v');
    await page.clock.runFor(PAUSE_MS - 1);
    expect(await completionsSent(page)).toEqual([]);
    await page.clock.runFor(1);
    await expect.poll(async () => (await completionsSent(page)).length, { timeout: 15_000 }).toBe(1);
    const [first] = await completionsSent(page);
    expect(first).toMatchObject({ position: { line: 3, character: 5 }, context: { triggerKind: 1 } });
    expect(first!.at - firstKeyAt).toBe(PAUSE_MS);
    // Its answer comes 800 ms later by the real clock; page time runs with it again, so the page
    // measures the list as slow.
    await page.clock.resume();
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n'), { timeout: 15_000 }).toContain('valueSlow');
    expect(await completionsSent(page)).toHaveLength(1);

    // From here page time moves only by the test's steps.
    await page.clock.pauseAt((await pageNow(page)) + 1_000);
    const keyTimes: number[] = [];
    for (const ch of TYPED) {
      keyTimes.push(await pageNow(page));
      await page.keyboard.type(ch);
      await page.clock.runFor(KEY_GAP_MS);
    }
    // While typing went on, no word list went out.
    expect(await completionsSent(page)).toHaveLength(1);
    // The pause: a pause-length after the last keystroke, and not a millisecond before, the word
    // typed last is asked for.
    const lastKey = keyTimes.at(-1)!;
    await page.clock.runFor(PAUSE_MS - KEY_GAP_MS - 1);
    expect(await completionsSent(page)).toHaveLength(1);
    await page.clock.runFor(1);
    await expect.poll(async () => (await completionsSent(page)).length, { timeout: 15_000 }).toBe(2);
    const afterPause = (await completionsSent(page))[1]!;
    expect(afterPause).toMatchObject({ position: { line: 3, character: 4 + 1 + TYPED.length }, context: { triggerKind: 1 } });
    expect(afterPause.at - lastKey).toBe(PAUSE_MS);

    // The trigger character asks at once: no page time passes between the `.` and its request.
    const triggerAt = await pageNow(page);
    await page.keyboard.type('.');
    await expect.poll(async () => (await completionsSent(page)).length, { timeout: 15_000 }).toBe(3);
    const triggered = (await completionsSent(page))[2]!;
    expect(triggered.context).toEqual({ triggerKind: 2, triggerCharacter: '.' });
    expect(triggered.at).toBe(triggerAt);
    await page.clock.resume();
    await expect.poll(async () => (await suggestRows(page).allInnerTexts()).join('\n'), { timeout: 15_000 }).toContain('memberItem');

    // The server heard the same requests, in the same order.
    const heard = session.log().filter((l) => l.message.method === 'textDocument/completion');
    expect(heard.map((l) => l.message.params.context?.triggerKind)).toEqual([1, 1, 2]);
  });
});
